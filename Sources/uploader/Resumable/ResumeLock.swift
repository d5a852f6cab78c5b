import Foundation
import UploaderItems

/// One run's hold on an upload's state: `<state>.lock`, locked with
/// `flock` for as long as the process runs, so a second run of the same
/// command does not resume the same upload at once (both would append to
/// the one upload and write the one state file). The second is told which
/// process holds it instead of waiting: the first may take hours.
///
/// The lock file holds the holder's process id, for that message; no
/// secret. The kernel lets go of the lock when the process ends, however it
/// ends, so a crash never leaves an upload locked.
final class ResumeLock {
    private let descriptor: Int32
    let file: URL

    /// Takes the lock for `state`, creating its folder (0700) and the lock
    /// file (0600) as needed.
    ///
    /// - Throws: an ``InputError`` naming the process that holds the lock,
    ///   or why the lock file cannot be made.
    init(for state: URL) throws(InputError) {
        file = state.appendingPathExtension("lock")
        try ResumeStore<Int>.createFolder(file.deletingLastPathComponent())
        while true {
            let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw InputError(.unusableFile, "cannot lock the resume state: \(file.path): \(reason)")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let holder = Self.holder(descriptor)
                close(descriptor)
                throw InputError(.conflictingInput, "another uploader\(holder.map { " (pid \($0))" } ?? "") is resuming this upload (\(file.path)); wait for it to finish, then run the command again")
            }
            // The holder before us may have finished and removed the file
            // between our open and our lock: lock the file at the path.
            var opened = stat(), atPath = stat()
            if fstat(descriptor, &opened) == 0, stat(file.path, &atPath) == 0, opened.st_ino == atPath.st_ino, opened.st_dev == atPath.st_dev {
                let pid = Array("\(getpid())\n".utf8)
                _ = ftruncate(descriptor, 0)
                _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
    }

    /// Removes the lock file as the run ends, still holding it: a run that
    /// opened the old file then finds it gone and locks a new one.
    func removeFile() {
        unlink(file.path)
    }

    deinit {
        close(descriptor)
    }

    /// The process id written in the lock file by its holder.
    private static func holder(_ descriptor: Int32) -> Int? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: bytes[..<count], as: UTF8.self).trimmingWhitespace)
    }
}
