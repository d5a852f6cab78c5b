public import Foundation

/// An AWS access key: the key ID, its secret, and the session token of
/// temporary credentials (from STS, an instance role or SSO).
///
/// `description` shows the key ID only, so credentials can be logged.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The access key ID, such as `AKIAIOSFODNN7EXAMPLE`.
    public var accessKeyID: String
    /// The secret access key; it signs and is never sent.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Credentials from the standard environment variables: `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY` and, for temporary credentials, `AWS_SESSION_TOKEN`
    /// (an empty one counts as none).
    ///
    /// - Parameter variables: The environment to read; the process's by default.
    /// - Throws: ``AWSSigningError/Code/missingCredentials``, naming the
    ///   variable that is missing or empty.
    public static func environment(
        _ variables: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AWSSigningError) -> AWSCredentials {
        func required(_ name: String) throws(AWSSigningError) -> String {
            guard let value = variables[name] else { throw .missingVariable(name, empty: false) }
            guard !value.isEmpty else { throw .missingVariable(name, empty: true) }
            return value
        }
        let token = variables["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(
            accessKeyID: try required("AWS_ACCESS_KEY_ID"),
            secretAccessKey: try required("AWS_SECRET_ACCESS_KEY"),
            sessionToken: token
        )
    }

    /// `AWSCredentials(AKIAIOSFODNN7EXAMPLE)`: the key ID, never the secret or token.
    public var description: String {
        "AWSCredentials(\(accessKeyID)\(sessionToken == nil ? "" : ", with a session token"))"
    }
}
