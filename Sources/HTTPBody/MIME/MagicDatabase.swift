import CMagic
import Dispatch
import Foundation

/// The process's libmagic handles, loaded on first use and closed soon after
/// the last use.
///
/// A `magic_t` is not thread-safe, so each call takes a handle of its own
/// from a small pool: one handle at first, and another (up to one per core)
/// only when calls overlap, so sniffing many files from many tasks runs on
/// every core instead of queueing on one lock. libmagic's compiled database
/// (8 MB, which a search that finds nothing reads nearly whole) is mapped
/// once for all the handles (``CompiledMagicFiles``), so a second handle
/// costs no second 8 MB; and the pool gives its pages back the first time no
/// handle is in use after it was loaded, so a program that types a file and
/// then sends it does not carry the database into the transfer. Not after
/// every call: giving the pages back and faulting them in again costs as
/// much as a search, and a search that finds nothing reads the whole
/// database in one call, so the high-water mark would keep it anyway. Once
/// no call has used the pool for ``releaseDelay``, the idle handles are
/// closed and the pages given back (a handle opens again cheaply). A path list with local magic in text (`MAGIC`, `/etc/magic`) is
/// loaded by `magic_load` for each handle, as libmagic does by itself.
///
/// `@unchecked Sendable` because the pool is only touched under `condition`'s
/// lock, and a handle is used by one caller at a time and never escapes.
package final class MagicDatabase: @unchecked Sendable {
    /// The shared pool, or `nil` when libmagic or its database could not be loaded.
    package static let shared: MagicDatabase? = {
        let pool = MagicDatabase(maximumCount: sharedLimit.withLock { $0 })
        sharedIsMade.withLock { $0 = true }
        return pool
    }()

    /// Whether ``shared`` has been made, which asking it would do.
    private static let sharedIsMade = LockedValue(false)

    /// The limit of ``limitSharedHandles(to:)``, for a pool not yet made.
    private static let sharedLimit = LockedValue<Int?>(nil)

    /// Opens at most `count` handles in the shared pool from now on (one
    /// per core otherwise), without loading it. For a program whose
    /// sniffing is a sliver of its work beside something that needs the
    /// memory: handles that share one mapping of the database add only
    /// their own tables (about 0.2 MB each), but each handle of a path list
    /// `magic_load` reads itself (local magic in text) keeps its own 6-8 MB
    /// of the database resident.
    package static func limitSharedHandles(to count: Int) {
        sharedLimit.withLock { $0 = count }
        guard sharedIsMade.withLock({ $0 }) else { return }
        shared?.limitHandles(to: count)
    }

    /// Closes the shared pool's idle handles now (``releaseIdleHandlesNow()``),
    /// if it was ever made: a program that typed no file by content never
    /// loads libmagic's database just to let it go.
    package static func releaseSharedIdleHandles() {
        guard sharedIsMade.withLock({ $0 }) else { return }
        shared?.releaseIdleHandlesNow()
    }

    private let condition = ConditionLock()
    /// The compiled databases every handle is loaded from, or `nil` when
    /// each handle loads the path list itself (``CompiledMagicFiles``).
    private let files: CompiledMagicFiles?
    /// The path list asked for (`nil`: libmagic's own), for `magic_load`.
    private let magicFile: String?
    /// Handles not in use.
    private var idle: [OpaquePointer]
    /// Handles open, in use or idle.
    private var openCount: Int
    /// The most handles open at once.
    private var maximumCount: Int
    /// The most handles that were open at once.
    private var highestOpenCount = 1
    /// When a handle was last given back.
    private var lastUse = DispatchTime.now()
    /// Whether a release is scheduled: one timer at a time, however many
    /// files are sniffed (a timer per sniff cost 10,000 timer changes for
    /// 10,000 files).
    private var releaseScheduled = false
    /// Whether the pages of ``files`` were given back since the pool was
    /// last loaded (if not, the next moment no handle is in use does it).
    private var trimmedSinceLoad = false

    /// How long the pool stays loaded after its last use.
    static let releaseDelay = DispatchTimeInterval.milliseconds(10)

    /// A pool of its own, loaded with one handle; `nil` when libmagic
    /// cannot load its database. Code sniffs through ``shared``; tests make
    /// their own to watch one pool that nothing else uses, and may name the
    /// path list as `magic_load`'s argument does (`nil`: `MAGIC` or libmagic's
    /// default).
    init?(maximumCount: Int? = nil, magicFile: String? = nil) {
        var files = CompiledMagicFiles(magicFile: magicFile)
        var cookie = Self.open(files, magicFile)
        if cookie == nil, files != nil {
            // libmagic refused the mapped files (another version): let it read them.
            files = nil
            cookie = Self.open(nil, magicFile)
        }
        guard let cookie else { return nil }
        self.files = files
        self.magicFile = magicFile
        idle = [cookie]
        openCount = 1
        self.maximumCount = max(1, maximumCount ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Opens at most `count` handles from now on; any more that are open
    /// close with the others once idle.
    func limitHandles(to count: Int) {
        condition.lock()
        maximumCount = max(1, count)
        condition.unlock()
    }

    deinit {
        idle.forEach(magic_close)
    }

    /// A handle with the database loaded, from the mapped files or else by
    /// `magic_load`; `nil` when libmagic cannot load it.
    private static func open(_ files: CompiledMagicFiles?, _ magicFile: String?) -> OpaquePointer? {
        guard let cookie = magic_open(MAGIC_MIME_TYPE) else { return nil }
        let loaded =
            if let files {
                files.load(into: cookie)
            } else {
                CompiledMagicFiles.loading.withLock {
                    let status = if let magicFile { magic_load(cookie, magicFile) } else { magic_load(cookie, nil) }
                    return status == 0
                }
            }
        guard loaded else {
            magic_close(cookie)
            return nil
        }
        return cookie
    }

    /// Whether the handles share one mapping of the database, which the pool
    /// gives back when idle.
    var sharesOneMapping: Bool { files != nil }

    /// How many handles are open, in use or idle; 0 once the pool is released.
    var openHandleCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// The most handles that were open at once so far.
    var highestHandleCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return highestOpenCount
    }

    /// libmagic's type for the bytes, such as `image/png`; `nil` when it fails.
    func mediaType(of bytes: [UInt8]) -> MediaType? {
        guard let cookie = checkOut() else { return nil }
        defer { checkIn(cookie) }
        let text: String? = bytes.withUnsafeBytes { buffer in
            guard let result = magic_buffer(cookie, buffer.baseAddress, buffer.count) else { return nil }
            return String(cString: result)
        }
        guard let text, let type = MediaType(text) else { return nil }
        // libmagic's names for "no content" are not media types a server expects.
        if type.subtype == "x-empty" { return nil }
        return type
    }

    /// An idle handle, a new one while fewer than one per core are open, or
    /// else the next handle another caller gives back.
    private func checkOut() -> OpaquePointer? {
        condition.lock()
        while idle.isEmpty, openCount >= maximumCount {
            condition.wait()
        }
        if let cookie = idle.popLast() {
            condition.unlock()
            return cookie
        }
        openCount += 1
        highestOpenCount = max(highestOpenCount, openCount)
        condition.unlock()
        // Loading takes milliseconds: done outside the lock so other callers proceed.
        if let cookie = Self.open(files, magicFile) { return cookie }
        condition.lock()
        openCount -= 1
        let fallback = idle.popLast()
        condition.unlock()
        return fallback ?? checkOutWaiting()
    }

    /// Waits for a handle another caller gives back (a new one could not be loaded).
    private func checkOutWaiting() -> OpaquePointer? {
        condition.lock()
        defer { condition.unlock() }
        guard openCount > 0 else { return nil }
        while idle.isEmpty {
            condition.wait()
        }
        return idle.popLast()
    }

    /// Closes the idle handles now instead of after ``releaseDelay``, and
    /// gives the database's pages back if no handle is in use, for a program
    /// that has typed its files and is about to need the memory; a handle in
    /// use stays with its caller, and the next sniff opens one.
    package func releaseIdleHandlesNow() {
        condition.lock()
        let closing = idle
        idle = []
        openCount -= closing.count
        let trims = openCount == 0
        if trims { trimmedSinceLoad = false }
        condition.unlock()
        closing.forEach(magic_close)
        if trims { files?.trim() }
    }

    private func checkIn(_ cookie: OpaquePointer) {
        condition.lock()
        idle.append(cookie)
        condition.signal()
        let now = DispatchTime.now()
        lastUse = now
        let schedules = !releaseScheduled
        releaseScheduled = true
        // The first time no handle is in use since the pool was loaded.
        let trims = files != nil && idle.count == openCount && !trimmedSinceLoad
        if trims { trimmedSinceLoad = true }
        condition.unlock()
        if trims { files?.trim() }
        if schedules { scheduleRelease(at: now + Self.releaseDelay) }
    }

    private func scheduleRelease(at deadline: DispatchTime) {
        DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in
            releaseIdleHandles()
        }
    }

    /// Closes every handle and gives the database's pages back once none has
    /// been in use for ``releaseDelay``; otherwise looks again when that will be so.
    private func releaseIdleHandles() {
        condition.lock()
        let now = DispatchTime.now()
        let due = lastUse + Self.releaseDelay
        guard idle.count == openCount, due <= now else {
            // A handle still out is given back later, and that starts the delay
            // again. Decided before unlocking: checkIn and checkOut change
            // `idle` and `openCount` under the lock at any moment after it.
            let next = idle.count == openCount ? due : now + Self.releaseDelay
            condition.unlock()
            scheduleRelease(at: next)
            return
        }
        let closing = idle
        idle = []
        openCount = 0
        releaseScheduled = false
        trimmedSinceLoad = false
        condition.unlock()
        closing.forEach(magic_close)
        files?.trim()
    }
}
