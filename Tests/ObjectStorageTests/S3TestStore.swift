import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport

/// The moto server the object-store tests share (started once: moto takes a
/// few seconds to import), with a client signed by its IAM user and a fresh
/// bucket per test.
struct S3TestStore: Sendable {
    let server: MotoServer
    let s3: S3Client

    private static let shared = Task { try await MotoServer.start() }

    /// The shared server and a client for it; `middleware` runs before the
    /// retry and the signer. `overTLS` sends to its HTTPS port, trusting its CA.
    static func make(
        middleware: [any RequestMiddleware] = [], secret: String? = nil, retry: RetryMiddleware? = nil, overTLS: Bool = false
    ) async throws -> S3TestStore {
        let server = try await shared.value
        let credentials = AWSCredentials(
            accessKeyID: server.credentials.accessKeyID,
            secretAccessKey: secret ?? server.credentials.secretAccessKey
        )
        let s3 = S3Client(
            endpoint: S3Endpoint(url: overTLS ? server.tlsEndpoint : server.endpoint, region: server.region),
            credentials: credentials,
            transport: overTLS ? try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.caFile))) : AsyncHTTPClientTransport(),
            middleware: middleware,
            retry: retry ?? RetryMiddleware(maximumAttempts: 3, initialBackoff: .milliseconds(10), retriesNonIdempotentRequests: true)
        )
        return S3TestStore(server: server, s3: s3)
    }

    /// Creates a bucket with a name no other test uses, beginning with `prefix`.
    func makeBucket(prefix: String = "test-") async throws -> String {
        let name = "\(prefix)\(UUID().uuidString.lowercased().prefix(18))"
        let response = try await s3.client.send(s3.request(.put, bucket: name, key: nil).build())
        precondition(response.status.code == 200, "moto did not create the bucket")
        return name
    }

    /// The object's bytes, read back.
    func object(_ location: S3Location) async throws -> Response {
        try await s3.client.send(s3.request(.get, bucket: location.bucket, key: location.key).build(), maximumBodySize: 256 << 20)
    }

    /// The bucket's unfinished multipart uploads (`ListMultipartUploads`), as XML text.
    func unfinishedUploads(in bucket: String) async throws -> String {
        let request = try s3.request(.get, bucket: bucket, key: nil).query("uploads", "").build()
        return String(decoding: try await s3.client.send(request).body, as: UTF8.self)
    }
}
