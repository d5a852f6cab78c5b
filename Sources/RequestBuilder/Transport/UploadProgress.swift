/// How much of a request body has gone out, reported while a transport sends it.
public struct UploadProgress: Sendable, Hashable {
    /// The body bytes handed to the connection so far.
    public var bytesSent: Int64
    /// The body's total size, when it is known up front.
    public var totalBytes: Int64?

    /// Creates a progress report.
    public init(bytesSent: Int64, totalBytes: Int64?) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
    }

    /// The fraction sent, from 0 to 1, when the total is known and not zero.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return Double(bytesSent) / Double(totalBytes)
    }
}
