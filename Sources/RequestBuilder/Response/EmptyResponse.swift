/// The response type of an endpoint whose body carries nothing to decode,
/// such as a `DELETE` answered with `204 No Content`.
public struct EmptyResponse: Decodable, Sendable, Hashable {
    /// Creates an empty response.
    public init() {}

    /// Accepts any body.
    public init(from decoder: any Decoder) throws {}
}
