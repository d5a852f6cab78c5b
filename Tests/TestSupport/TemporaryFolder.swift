public import Foundation

/// A fresh folder under the temporary directory, removed with the last
/// reference to it: held by a suite instance (Swift Testing makes one per
/// test), it lasts exactly as long as the test, including bodies that read
/// its files lazily, and goes whether the test passes, fails or throws.
public final class TemporaryFolder: Sendable {
    /// The folder's location.
    public let url: URL

    /// Creates the folder, named `prefix` and a UUID.
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `name` inside the folder.
    public func appending(path name: String) -> URL { url.appending(path: name) }
}
