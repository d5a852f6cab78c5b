public import Foundation

extension JSONDecoder {
    /// A new decoder for the common API style: `snake_case` keys and ISO 8601
    /// dates (with or without fractional seconds).
    ///
    /// Create it once and return that instance from ``Endpoint/decoder``.
    public static var snakeCaseISO8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text.debugDescription) is not an ISO 8601 date")
        }
        return decoder
    }
}
