package import AsyncHTTPClient
package import RequestBuilder

extension HTTPClient.Configuration {
    /// Verifies servers, trusts and presents what `tls` says, every file it
    /// names read now (as ``AsyncHTTPClientTransport/init(tls:proxies:connectTimeout:chunkSize:eventLoopGroup:)``
    /// reads them): for a client of one's own making, such as the uploader's
    /// one-loop client, which trusts what `SSL_CERT_FILE` names too.
    ///
    /// - Returns: The error each `https://` request must get instead of
    ///   being sent, when OpenSSL's locations cannot be used (a plain
    ///   `http://` request needs no trust roots); `nil` when they can.
    /// - Throws: `RequestError` (code `invalidRequest`) naming the file at fault.
    package mutating func apply(_ tls: TLSSettings) throws -> RequestError? {
        let (configuration, httpsProblem) = try tls.makeTLSConfiguration()
        tlsConfiguration = configuration
        return httpsProblem
    }
}
