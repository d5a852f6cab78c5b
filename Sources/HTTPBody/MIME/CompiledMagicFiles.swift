import CMagic
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libmagic's compiled databases, mapped once for all the handles of a
/// ``MagicDatabase`` pool.
///
/// `magic_load` maps the compiled database (8 MB) anew for every handle, and
/// a search that finds nothing reads nearly all of it, so two handles in use
/// would hold 16 MB resident. `magic_load_buffers` uses the caller's buffers in
/// place (libmagic's `apprentice_buf` keeps the pointer; `check_buffer`
/// writes only to swap a database of the other byte order, which is never
/// mapped here), so the pool maps each file once, read-only, and loads every
/// handle from that mapping. And since the pool owns the mapping, it can give
/// the pages back while no handle is in use (``trim()``): they come back from
/// the page cache, by minor faults, when a search reads them again.
///
/// Only when the path list `magic_load` would read (`magic_getpath`: the
/// `MAGIC` variable, else `~/.magic.mgc` and `/etc/magic:/usr/share/misc/magic`)
/// is made of compiled files and files of comments only (Debian's
/// `/etc/magic`): a list with local magic in text, a directory or an entry
/// that does not exist is left to `magic_load`, handle by handle, so it keeps
/// exactly libmagic's meaning.
///
/// `@unchecked Sendable` because nothing changes after `init`, and the
/// mapped bytes are only read.
final class CompiledMagicFiles: @unchecked Sendable {
    /// The mapped files, in the path list's order.
    private let regions: [(base: UnsafeMutableRawPointer, length: Int)]

    /// The path list `magic_load(cookie, magicFile)` would read, mapped;
    /// `nil` when anything in it is not a compiled database or a file of
    /// comments, or nothing is compiled.
    init?(magicFile: String?) {
        guard let components = Self.pathList(magicFile) else { return nil }
        var regions: [(base: UnsafeMutableRawPointer, length: Int)] = []
        for component in components {
            if let region = Self.mapCompiledDatabase(for: component) {
                regions.append(region)
            } else if !Self.holdsOnlyComments(component) {
                regions.forEach { _ = munmap($0.base, $0.length) }
                return nil
            }
        }
        guard !regions.isEmpty else { return nil }
        self.regions = regions
    }

    deinit {
        regions.forEach { _ = munmap($0.base, $0.length) }
    }

    /// Loads the mapped databases into a fresh handle; `false` when libmagic
    /// refuses them (a database of another version).
    func load(into cookie: OpaquePointer) -> Bool {
        var buffers: [UnsafeMutableRawPointer?] = regions.map(\.base)
        var sizes: [Int] = regions.map(\.length)
        let count = regions.count
        // libmagic keeps the pointers, not the arrays holding them.
        return buffers.withUnsafeMutableBufferPointer { buffers in
            sizes.withUnsafeMutableBufferPointer { sizes in
                magic_load_buffers(cookie, buffers.baseAddress, sizes.baseAddress, count) == 0
            }
        }
    }

    /// Gives the resident pages back (`MADV_DONTNEED`); the mapping stays,
    /// and a search that reads the pages again faults them in from the page
    /// cache. The bytes never change (a private mapping nobody writes), so
    /// this is safe even while a handle reads them; it only costs it the faults.
    func trim() {
        for region in regions {
            _ = madvise(region.base, region.length, Int32(MADV_DONTNEED))
        }
    }

    /// Serializes `magic_getpath` and `magic_load`: libmagic builds the
    /// default path list in a static buffer it frees on the next call.
    static let loading = ConditionLock()

    /// libmagic's path list: its components up to the first empty one, as
    /// `file_apprentice` walks them.
    private static func pathList(_ magicFile: String?) -> [String]? {
        // magic_getpath returns a list it is given as it is; else the
        // `MAGIC` variable or the default (0 is FILE_LOAD, magic_load's action).
        let list: String? =
            magicFile
            ?? loading.withLock {
                magic_getpath(nil, 0).map { String(cString: $0) }
            }
        guard let list else { return nil }
        let components = list.split(separator: ":", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return components.map(String.init)
    }

    /// The compiled database libmagic reads for one component of the path
    /// list, mapped read-only; `nil` when there is none it could use here.
    ///
    /// As libmagic's `mkdbname` for a handle asking for MIME types: the
    /// component without a `.mgc` ending, then `NAME.mime.mgc` if readable,
    /// else `NAME.mgc`.
    private static func mapCompiledDatabase(for component: String) -> (base: UnsafeMutableRawPointer, length: Int)? {
        let name = component.hasSuffix(".mgc") ? String(component.dropLast(4)) : component
        let mime = name + ".mime.mgc"
        let path = access(mime, R_OK) == 0 ? mime : name + ".mgc"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= 8,
            let length = Int(exactly: status.st_size)
        else { return nil }
        // A database in the other byte order is swapped in place by libmagic,
        // which a read-only mapping cannot take: magic_load gets it.
        var header: UInt32 = 0
        guard pread(descriptor, &header, 4, 0) == 4, header == 0xF11E_041C else { return nil }
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            return nil
        }
        return (base, length)
    }

    /// Whether a component is a regular file of comment and empty lines
    /// only, from which libmagic loads nothing. Read with `read(2)`, not
    /// Foundation: this runs in every program that sniffs, and Foundation's
    /// file reading would fault in code of its own for one small file.
    private static func holdsOnlyComments(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= 1 << 16 else {
            return false
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        // One read takes a regular file this small whole; a file that
        // changed size meanwhile is not believed.
        guard count == Int(status.st_size) else { return false }
        var lineStart = true
        for byte in bytes[..<count] {
            if lineStart, byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "#") { return false }
            lineStart = byte == UInt8(ascii: "\n")
        }
        return true
    }
}
