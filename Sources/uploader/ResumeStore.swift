import Foundation
import SystemPackage
import UploaderItems

/// Where a resumable or multipart upload's state is kept between runs: one JSON file per
/// command, named after a digest of what makes the command "the same" (the
/// method, URL, items and the options that shape the body), under
/// `--state-dir`, else `$XDG_STATE_HOME/uploader`, else
/// `~/.local/state/uploader` (the XDG base directory layout).
struct ResumeStore<State: Codable> {
    /// What is saved: the state, and the command it belongs to, compared on
    /// load so that two commands whose digests collide never share a state.
    struct Record: Codable {
        var command: String
        var state: State
    }

    let file: URL
    let command: String

    /// The store for `command` (its canonical text) in `directory`, or in
    /// the default directory when `nil`.
    init(command: String, directory: String?) {
        let folder: URL
        let environment = ProcessInfo.processInfo.environment
        if let directory {
            folder = URL(filePath: directory)
        } else if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = URL(filePath: state).appending(path: "uploader")
        } else {
            let home = environment["HOME"].map { URL(filePath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            folder = home.appending(path: ".local/state/uploader")
        }
        self.command = command
        self.file = folder.appending(path: "\(Self.digest(command)).json")
    }

    /// The state saved for this command, if any.
    ///
    /// - Throws: an ``InputError`` when the file exists but cannot be read
    ///   as a state (nothing is sent; the message names the file).
    func load() throws(InputError) -> State? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard let record = try? JSONDecoder().decode(Record.self, from: data) else {
            throw InputError(.unusableFile, "the resume state \(file.path) cannot be read; delete it to start the upload afresh")
        }
        return record.command == command ? record.state : nil
    }

    /// Saves `state`, replacing the file in one step (written beside it,
    /// flushed, then renamed) so a crash leaves the old state or the new one.
    func save(_ state: State) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(Record(command: command, state: state))
        let temporary = file.appendingPathExtension("partial")
        // A descriptor rather than FileHandle, which on Linux would link the
        // whole of Foundation (see `ConditionLock` in HTTPBody).
        let handle = try FileDescriptor.open(
            FilePath(temporary.path), .writeOnly, options: [.create, .truncate], permissions: FilePermissions(rawValue: 0o666)
        )
        try handle.closeAfter {
            _ = try data.withUnsafeBytes { try handle.writeAll($0) }
            guard fsync(handle.rawValue) == 0 else { throw Errno(rawValue: errno) }
        }
        guard rename(temporary.path, file.path) == 0 else { throw Errno(rawValue: errno) }
    }

    /// Deletes the state, once the upload is complete.
    func delete() {
        try? FileManager.default.removeItem(at: file)
    }

    /// FNV-1a, 64 bits, in hex: a stable file name for the command (not a
    /// secret; the command itself is checked on load).
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
