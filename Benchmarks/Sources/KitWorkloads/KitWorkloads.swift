import MultipartKit

/// The peer's side of the field benchmark: multipart-kit's `FormDataEncoder`.
public enum KitWorkloads {
    /// `count` small text fields (`field0=value 0`, ...), as the encoder takes them.
    public static func fields(count: Int) -> [String: String] {
        var fields: [String: String] = [:]
        fields.reserveCapacity(count)
        for index in 0..<count {
            fields["field\(index)"] = "value \(index)"
        }
        return fields
    }

    /// multipart-kit's encoding of `fields`: the whole body as one string.
    public static func encode(_ fields: [String: String]) throws -> String {
        try FormDataEncoder().encode(fields, boundary: "benchmark-boundary-7MA4YWxkTrZu0gW")
    }
}
