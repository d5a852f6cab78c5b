public import HTTPTypes

extension HTTPField.Name {
    /// `x-amz-date`: the signing time, `20150830T123600Z`.
    public static let xAmzDate = HTTPField.Name("x-amz-date")!
    /// `x-amz-content-sha256`: the payload's SHA-256 in hex, `UNSIGNED-PAYLOAD`
    /// or `STREAMING-AWS4-HMAC-SHA256-PAYLOAD`. A request that carries one is
    /// signed with it and its body is not read for a hash.
    public static let xAmzContentSHA256 = HTTPField.Name("x-amz-content-sha256")!
    /// `x-amz-security-token`: the session token of temporary credentials.
    public static let xAmzSecurityToken = HTTPField.Name("x-amz-security-token")!
    /// `x-amz-decoded-content-length`: an `aws-chunked` body's length before encoding.
    public static let xAmzDecodedContentLength = HTTPField.Name("x-amz-decoded-content-length")!
}
