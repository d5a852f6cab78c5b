public import RequestBuilder

extension S3Client {
    /// A client as the AWS CLI would set it up: the credentials, region and
    /// endpoint of ``AWSConfiguration/load(profile:environment:)``.
    ///
    /// The region is the set-up's, else `us-east-1`; a configured endpoint
    /// (an S3-compatible store) is addressed path-style, AWS's virtual-hosted.
    ///
    /// - Parameters:
    ///   - configuration: The set-up, usually `try .load()` or `try .load(profile: "name")`.
    ///   - transport: Sends each attempt.
    ///   - middleware: Run first, outermost first (logging, say).
    ///   - retry: Retries each request on its own.
    public init(
        configuration: AWSConfiguration,
        transport: any HTTPTransport,
        middleware: [any RequestMiddleware] = [],
        retry: RetryMiddleware = RetryMiddleware(maximumAttempts: 5, retriesNonIdempotentRequests: true)
    ) {
        let region = configuration.region ?? "us-east-1"
        let endpoint = configuration.endpointURL.map { S3Endpoint(url: $0, region: region, addressing: .path) } ?? .aws(region: region)
        self.init(endpoint: endpoint, credentials: configuration.credentials, transport: transport, middleware: middleware, retry: retry)
    }
}
