public import HTTPTypes

/// The response statuses a request accepts as success; others fail with
/// ``RequestError/Code/unacceptableStatus``.
public struct AcceptableStatus: Sendable, Hashable {
    private let codes: Set<Int>?

    private init(codes: Set<Int>?) { self.codes = codes }

    /// 200 to 299.
    public static let successful = AcceptableStatus(codes: Set(200..<300))
    /// Every status: the caller inspects the response itself.
    public static let any = AcceptableStatus(codes: nil)
    /// Exactly these codes.
    public static func codes(_ codes: some Sequence<Int>) -> AcceptableStatus { AcceptableStatus(codes: Set(codes)) }

    /// Whether the status counts as success.
    public func accepts(_ status: HTTPResponse.Status) -> Bool {
        codes?.contains(status.code) ?? true
    }
}
