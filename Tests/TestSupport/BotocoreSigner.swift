public import Foundation

/// botocore's Signature Version 4 signers (`Tests/Servers/sigv4_oracle.py`)
/// in a child process: the independent oracle the AWSSigning tests compare
/// with. One process answers many requests, one at a time.
public actor BotocoreSigner {
    /// Which botocore signer to use.
    public enum Signer: String, Encodable, Sendable {
        /// `SigV4Auth`: any service; the path is normalized and encoded again.
        case sigV4 = "sigv4"
        /// `S3SigV4Auth`: header signing for S3, `X-Amz-Content-SHA256` set.
        case s3
        /// `S3SigV4QueryAuth`: a presigned URL.
        case s3Query = "s3-query"
    }

    /// A request to sign, as the script reads it.
    public struct Order: Encodable, Sendable {
        public var signer: Signer
        public var method: String
        /// The URL as sent (path and query already percent-encoded).
        public var url: String
        /// Header fields in order; a name may repeat.
        public var headers: [[String]]
        /// The body, base64, or `nil` for none.
        public var body: String?
        /// `UNSIGNED-PAYLOAD` instead of the body's SHA-256 (`s3` only).
        public var unsignedPayload: Bool
        public var accessKeyID: String
        public var secretAccessKey: String
        public var sessionToken: String?
        public var region: String
        public var service: String
        /// `yyyyMMdd'T'HHmmss'Z'`, the signing time.
        public var date: String
        /// A presigned URL's lifetime in seconds.
        public var expires: Int

        /// An order; see the script's docstring for each field.
        public init(
            signer: Signer, method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
            unsignedPayload: Bool = false, accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil,
            region: String, service: String = "s3", date: String, expires: Int = 3600
        ) {
            self.signer = signer
            self.method = method
            self.url = url
            self.headers = headers.map { [$0.0, $0.1] }
            self.body = body.map { Data($0).base64EncodedString() }
            self.unsignedPayload = unsignedPayload
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
            self.region = region
            self.service = service
            self.date = date
            self.expires = expires
        }
    }

    /// What botocore made of an order.
    public struct Answer: Decodable, Sendable {
        /// The request's header fields after signing, in order.
        public let headers: [[String]]
        /// The URL after signing (a presigned one for `s3Query`).
        public let url: String
        public let canonicalRequest: String
        public let stringToSign: String

        /// The first value of `name` (compared case-insensitively).
        public func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }
    }

    private struct Failure: Decodable { let error: String }

    private let process: ServerProcess

    /// Starts the script with the test Python (`TestPython`, which has botocore).
    public init() async throws {
        process = try ServerProcess.startFilter(
            name: "sigv4-oracle",
            executable: try await TestPython.withServerPackages(),
            arguments: [TestPackage.serverScript("sigv4_oracle.py").path]
        )
    }

    /// Signs `order` with botocore; a request botocore refuses throws its message.
    public func sign(_ order: Order) async throws -> Answer {
        let encoded = try JSONEncoder().encode(order)
        try process.send(line: String(decoding: encoded, as: UTF8.self))
        let line = Data(try await process.readLine().utf8)
        if let failure = try? JSONDecoder().decode(Failure.self, from: line) {
            throw TestHTTPServerError(description: "botocore could not sign \(order.method) \(order.url): \(failure.error)")
        }
        return try JSONDecoder().decode(Answer.self, from: line)
    }

    /// A presigned POST form to ask boto3's `generate_presigned_post` for.
    public struct PostOrder: Encodable, Sendable {
        private let signer = "s3-post"
        public var bucket: String
        /// The key, `${filename}` and all.
        public var key: String
        /// Fields boto3 adds to the form as they are.
        public var fields: [String: String]
        /// The conditions, as JSON text (objects and arrays mixed).
        public var conditions: [ConditionJSON]
        /// Seconds from `date` to the policy's expiration.
        public var expires: Int
        public var accessKeyID: String
        public var secretAccessKey: String
        public var sessionToken: String?
        public var region: String
        /// `yyyyMMdd'T'HHmmss'Z'`, the signing time.
        public var date: String

        /// An order; see the script's docstring.
        public init(
            bucket: String, key: String, fields: [String: String] = [:], conditions: [ConditionJSON] = [], expires: Int,
            accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, region: String, date: String
        ) {
            self.bucket = bucket
            self.key = key
            self.fields = fields
            self.conditions = conditions
            self.expires = expires
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
            self.region = region
            self.date = date
        }
    }

    /// One policy condition as boto3 takes it: `{"name": "value"}` or an array of strings and numbers.
    public enum ConditionJSON: Encodable, Sendable {
        case object(String, String)
        case array([String], numbers: [Int64])

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .object(let name, let value):
                var container = encoder.singleValueContainer()
                try container.encode([name: value])
            case .array(let strings, let numbers):
                var container = encoder.unkeyedContainer()
                for string in strings { try container.encode(string) }
                for number in numbers { try container.encode(number) }
            }
        }
    }

    /// What boto3 returned: the URL and the form's fields.
    public struct PostForm: Decodable, Sendable {
        public let url: String
        public let fields: [String: String]
    }

    /// Asks boto3 for the presigned POST form `order` describes.
    public func presignedPost(_ order: PostOrder) async throws -> PostForm {
        let encoded = try JSONEncoder().encode(order)
        try process.send(line: String(decoding: encoded, as: UTF8.self))
        let line = Data(try await process.readLine().utf8)
        if let failure = try? JSONDecoder().decode(Failure.self, from: line) {
            throw TestHTTPServerError(description: "boto3 could not make the presigned POST of \(order.key): \(failure.error)")
        }
        return try JSONDecoder().decode(PostForm.self, from: line)
    }

    /// Ends the child.
    public func stop() {
        process.stop()
    }

    /// `date` as SigV4 writes it (`20150830T123600Z`), for orders.
    public static func amzDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let numbers = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map { $0 ?? 0 }
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }
}
