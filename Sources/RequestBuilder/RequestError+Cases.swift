import HTTPBody
import HTTPTypes

extension RequestError {
    /// A response whose status the request does not accept; the description
    /// gives the status and a preview of the body (servers explain errors there).
    public static func unacceptableStatus(_ response: Response) -> RequestError {
        let preview = response.bodyPreview(limit: 256)
        let status = response.status.withStandardReasonPhrase.text
        return RequestError(
            code: .unacceptableStatus,
            description: preview.isEmpty
                ? "The server answered \(status), which the request does not accept"
                : "The server answered \(status), which the request does not accept; the body begins: \(preview)",
            response: response
        )
    }

    /// A response body that could not be decoded into `type`; the description
    /// names the coding path that failed.
    public static func decoding(_ type: Any.Type, response: Response, error: any Error) -> RequestError {
        RequestError(
            code: .decoding,
            description: "Cannot decode \(type) from the response: \(describeDecodingFailure(error))",
            response: response,
            underlying: error
        )
    }

    /// A response body that could not be decoded into `type` for `reason`.
    static func decoding(_ type: Any.Type, response: Response, reason: String) -> RequestError {
        RequestError(code: .decoding, description: "Cannot decode \(type) from the response: \(reason)", response: response)
    }

    /// A decoding error as a sentence with its coding path, such as
    /// `value at "posts[2].created_at": Expected String but found a number`.
    static func describeDecodingFailure(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "value at \(path(context.codingPath)) is not \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "value at \(path(context.codingPath)) is null or missing, but \(type) was expected: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "key \(key.stringValue.debugDescription) is missing at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return "data at \(path(context.codingPath)) is corrupted: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// An encoding error as a sentence with its coding path.
    static func describeEncodingFailure(_ error: any Error) -> String {
        switch error {
        case let error as EncodingError:
            switch error {
            case .invalidValue(let value, let context):
                return "value \(value) at \(path(context.codingPath)) cannot be encoded: \(context.debugDescription)"
            @unknown default:
                return "\(error)"
            }
        case let error as any CustomStringConvertible:
            return error.description
        default:
            return "\(error)"
        }
    }

    /// A coding path written as `"posts[2].title"`, or `the top level` when empty.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : "\"\(CodingPathText.json(codingPath))\""
    }
}
