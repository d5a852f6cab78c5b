#if os(Linux)
import Glibc

/// The executable's relocation table, read once by the dynamic loader before
/// `main` and never again.
///
/// A position-independent Swift executable carries a relocation for every
/// pointer in its type metadata and witness tables, a table that the loader
/// reads front to back, so all of it stays resident for the life of the
/// process. ``release()`` gives those pages back; they are clean
/// pages of the file, so nothing is lost, and should anything read them
/// again they would be read from the file.
enum RelocationTable {
    static func release() {
        guard let (address, size) = locate() else { return }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = (address + page - 1) / page * page  // whole pages within the table only
        let end = (address + size) / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, Int(end - start), MADV_DONTNEED)
    }

    /// The table's address and size (`DT_RELA`, `DT_RELASZ`), found through
    /// the program headers the kernel reports in the auxiliary vector.
    private static func locate() -> (address: UInt, size: UInt)? {
        guard let (headers, count) = programHeaders() else { return nil }
        let table = UnsafePointer<Elf64_Phdr>(bitPattern: headers)
        guard let table else { return nil }
        let all = UnsafeBufferPointer(start: table, count: count)
        guard let own = all.first(where: { $0.p_type == PT_PHDR }),
              let dynamic = all.first(where: { $0.p_type == PT_DYNAMIC })
        else { return nil }
        let bias = headers &- UInt(own.p_vaddr)
        guard var entry = UnsafePointer<Elf64_Dyn>(bitPattern: bias &+ UInt(dynamic.p_vaddr)) else { return nil }
        var address: UInt = 0
        var size: UInt = 0
        while entry.pointee.d_tag != DT_NULL {
            switch entry.pointee.d_tag {
            case Int64(DT_RELA): address = UInt(entry.pointee.d_un.d_ptr)
            case Int64(DT_RELASZ): size = UInt(entry.pointee.d_un.d_val)
            default: break
            }
            entry += 1
        }
        guard address != 0, size != 0 else { return nil }
        // glibc's loader rewrites the entry as an address; another may leave the offset.
        return (address < bias ? bias &+ address : address, size)
    }

    /// `AT_PHDR` and `AT_PHNUM` from `/proc/self/auxv`.
    private static func programHeaders() -> (address: UInt, count: Int)? {
        let descriptor = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var vector = [UInt](repeating: 0, count: 128)
        let count = vector.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        var address: UInt?
        var headerCount: Int?
        for index in stride(from: 0, to: count / MemoryLayout<UInt>.size - 1, by: 2) {
            switch vector[index] {
            case UInt(AT_PHDR): address = vector[index + 1]
            case UInt(AT_PHNUM): headerCount = Int(vector[index + 1])
            default: break
            }
        }
        guard let address, let headerCount else { return nil }
        return (address, headerCount)
    }
}
#endif
