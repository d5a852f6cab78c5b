import Foundation
import UploaderItems

/// State files written by versions before the state kept a digest of the
/// command: named by a 64-bit FNV-1a hash (16 hex digits, `<hash>.json`),
/// holding the whole command, passwords, `Authorization` and API-key
/// headers and SSE-C keys included, often readable by others (0644), and
/// their temporary `<hash>.json.partial` files.
///
/// Each is rewritten in today's form, as the state of the same command
/// (`<sha256>.json`: the digest of the command it held, never the command),
/// and then removed: its upload stays resumable by running the command
/// again, and the secrets are gone from the disk. Deleting them instead
/// would abandon every upload they describe on the server. A temporary
/// file is removed (it was never the state). A file that cannot be read as
/// a state is left where it is, made 0600, for the user to judge: the load
/// of its command names it.
enum LegacyStateFiles {
    /// Rewrites or removes the legacy files in `folder`; files of other
    /// users and anything not named like one are left alone.
    static func migrate<State: Codable>(in folder: URL, as: State.Type) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            let legacy = folder.appending(path: name)
            guard isLegacyName(name), isOwnedRegularFile(legacy) else { continue }
            if name.hasSuffix(".partial") {
                unlink(legacy.path)
            } else if let data = try? Data(contentsOf: legacy), let (digest, record) = rewritten(data, as: State.self) {
                let current = folder.appending(path: "\(digest).json")
                // A state already in today's form is newer than the legacy one.
                if !FileManager.default.fileExists(atPath: current.path) {
                    guard (try? ResumeStore<State>.write(record, to: current)) != nil else { continue }
                }
                unlink(legacy.path)
            } else {
                chmod(legacy.path, 0o600)
            }
        }
    }

    /// The legacy record as today's: the digest of its command, and the
    /// bytes of a record holding that digest and the same state.
    private static func rewritten<State: Codable>(_ data: Data, as: State.Type) -> (String, Data)? {
        guard let legacy = LegacyStateRecord<State>(data) else { return nil }
        let digest = ResumeStore<State>.digest(legacy.command)
        return (try? legacy.rewritten(commandDigest: digest)).map { (digest, $0) }
    }

    /// `<16 hex digits>.json` or `<16 hex digits>.json.partial`.
    static func isLegacyName(_ name: String) -> Bool {
        let stem = name.hasSuffix(".json.partial") ? name.dropLast(".json.partial".count) : name.hasSuffix(".json") ? name.dropLast(".json".count) : nil
        guard let stem, stem.utf8.count == 16 else { return false }
        return stem.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    private static func isOwnedRegularFile(_ file: URL) -> Bool {
        var info = stat()
        return lstat(file.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == getuid()
    }
}
