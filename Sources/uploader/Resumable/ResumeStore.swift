import Crypto
import Foundation
import HTTPBody
import SystemPackage
import UploaderItems

/// Where a resumable or multipart upload's state is kept between runs: one JSON file per
/// command, named after a digest of what makes the command "the same" (the
/// method, URL, items and the options that shape the body), under
/// `--state-dir`, else `$XDG_STATE_HOME/uploader`, else
/// `~/.local/state/uploader` (the XDG base directory layout).
///
/// The command itself is never written: it may hold a URL's password, an
/// `Authorization` or API-key header, an SSE-C key. The file keeps its
/// SHA-256 digest, enough to tell it belongs to this command, and the state
/// (upload URL, boundary, files' identities). Files are created 0600 and
/// folders 0700: the upload URL alone may let its holder append to the upload.
struct ResumeStore<State: Codable> {
    /// What is saved: the state, and the digest of the command it belongs
    /// to, compared on load.
    struct Record: Codable {
        var commandDigest: String
        var state: State
    }

    let file: URL
    /// The SHA-256 of the command's canonical text, in hex.
    let commandDigest: String
    /// Whether the folder is the default one, which this tool owns and
    /// tightens to 0700 when it is readable by others (made so by hand or
    /// by an older uploader);
    /// a `--state-dir` the user gave keeps the mode they chose.
    private let ownsFolder: Bool

    /// The store for `command` (its canonical text) in `directory`, or in
    /// the default directory when `nil`.
    init(command: String, directory: String?) {
        let folder: URL
        let environment = ProcessEnvironment.variables
        if let directory {
            folder = URL(filePath: directory)
        } else if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = URL(filePath: state).appending(path: "uploader")
        } else {
            let home = environment["HOME"].map { URL(filePath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            folder = home.appending(path: ".local/state/uploader")
        }
        ownsFolder = directory == nil
        commandDigest = Self.digest(command)
        file = folder.appending(path: "\(commandDigest).json")
    }

    /// The state saved for this command, if any.
    ///
    /// - Throws: an ``InputError`` when the file exists but cannot be read
    ///   or is not a state (nothing is sent; the message names the file). An
    ///   unreadable state is not "no state": starting afresh would abandon
    ///   the upload it describes.
    func load() throws(InputError) -> State? {
        let folder = file.deletingLastPathComponent()
        if ownsFolder { tightenFolder(folder) }
        LegacyStateFiles.migrate(in: folder, as: State.self)
        tightenFile(file)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            var info = stat()
            if lstat(file.path, &info) != 0, errno == ENOENT || errno == ENOTDIR { return nil }
            let reason = Self.reason(error)
            throw InputError(.unusableFile, "the resume state \(file.path) cannot be read (\(reason)); make it readable to continue the upload, or delete it to start afresh")
        }
        guard let record = try? JSONDecoder().decode(Record.self, from: data) else {
            throw InputError(.unusableFile, "the resume state \(file.path) cannot be read; delete it to start the upload afresh")
        }
        return record.commandDigest == commandDigest ? record.state : nil
    }

    /// Saves `state`, replacing the file in one step (written beside it
    /// under a name no other run uses, flushed, then renamed) so a crash
    /// leaves the old state or the new one, and two runs never write into
    /// one temporary file. The temporary file is removed when a step fails.
    func save(_ state: State) throws {
        let folder = file.deletingLastPathComponent()
        try Self.createFolder(folder)
        if ownsFolder { tightenFolder(folder) }
        try Self.write(Self.encode(Record(commandDigest: commandDigest, state: state)), to: file)
    }

    /// Creates the state folder (0700) and the folders above it.
    ///
    /// - Throws: an ``InputError`` naming the folder and the system's
    ///   reason, and what to type instead (an unwritable `HOME`).
    static func createFolder(_ folder: URL) throws(InputError) {
        // mkdir by mkdir rather than FileManager, whose error is a
        // CocoaError ("rawValue: 513") where the system's reason is wanted.
        var path = folder.path.hasPrefix("/") ? "" : "."
        for component in folder.path.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, 0o700) != 0, errno != EEXIST else { continue }
            let reason = String(cString: strerror(errno))
            throw InputError(.unusableFile, "cannot create the resume state folder \(folder.path) (\(path): \(reason)); give a folder you can write with --state-dir DIR")
        }
    }

    /// A record as the store writes it.
    static func encode(_ record: Record) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(record)
    }

    /// Writes `data` as `file`, 0600, in one step (``PrivateFile/write(_:to:)``).
    static func write(_ data: Data, to file: URL) throws {
        try PrivateFile.write(data, to: file.path)
    }

    /// Deletes the state, once the upload is complete.
    func delete() {
        try? FileManager.default.removeItem(at: file)
    }

    /// Takes group and other permissions off the default folder.
    private func tightenFolder(_ folder: URL) {
        var info = stat()
        guard stat(folder.path, &info) == 0, info.st_uid == getuid(), info.st_mode & 0o077 != 0 else { return }
        chmod(folder.path, 0o700)
    }

    /// Takes group and other permissions off this command's state file at
    /// once, on load: a file made readable by others (by hand, or by an
    /// older uploader) must not stay so for a whole run, or for good if the
    /// run fails before saving.
    private func tightenFile(_ file: URL) {
        var info = stat()
        guard lstat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(), info.st_mode & 0o077 != 0 else { return }
        chmod(file.path, 0o600)
    }

    /// Why a file could not be read or made, in the system's words.
    private static func reason(_ error: any Error) -> String {
        SystemErrorText.describe(fileError: error)
    }

    /// SHA-256 in hex: the state file's name and the check that a state
    /// belongs to the command, without the command's secrets.
    static func digest(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).lowercaseHex
    }
}
