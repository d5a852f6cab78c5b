/// How ``SigV4Middleware`` signs a request's body.
///
/// A request that already carries `x-amz-content-sha256` is signed with that
/// value whatever is chosen here, and its body is not read for a hash.
public struct SigV4PayloadSigning: Sendable, Hashable {
    enum Mode: Hashable {
        case hashed
        case unsigned
        case streaming(chunkSize: Int)

        var isStreaming: Bool {
            if case .streaming = self { return true }
            return false
        }
    }

    let mode: Mode

    private init(_ mode: Mode) {
        self.mode = mode
    }

    /// The default: the body's SHA-256 is signed, so the server refuses a
    /// body changed on the way. A replayable body is read once to hash it
    /// before it is sent (twice in all); an empty body signs the hash of "".
    /// A body that can be read only once (a stream) cannot be hashed before
    /// sending, so it is sent as ``streaming(chunkSize:)`` with the default size.
    public static let hashed = SigV4PayloadSigning(.hashed)

    /// `UNSIGNED-PAYLOAD`: the body is not read for a hash and not signed. S3
    /// accepts it; over plain HTTP nothing then protects the body.
    public static let unsigned = SigV4PayloadSigning(.unsigned)

    /// The body sent with `Content-Encoding: aws-chunked` as
    /// `STREAMING-AWS4-HMAC-SHA256-PAYLOAD`: cut into chunks of `chunkSize`
    /// bytes, each signed over the one before (sigv4-streaming), so the body
    /// is read once, as it is sent, in constant memory, and still signed.
    ///
    /// The body must have a known length (S3 needs the decoded length up
    /// front, and the encoded `Content-Length` follows from it). A retry
    /// reads it again and signs it afresh, so only a replayable body is retried.
    ///
    /// - Parameter chunkSize: The bytes of body in each chunk but the last;
    ///   at least 8 KiB, the smallest S3 accepts (a smaller value counts as 8 KiB).
    public static func streaming(chunkSize: Int = 64 * 1024) -> SigV4PayloadSigning {
        SigV4PayloadSigning(.streaming(chunkSize: max(AWSChunkedEncoding.smallestChunkSize, chunkSize)))
    }
}
