/// The sentences both transports use for the same failure, so a refused
/// connection or an untrusted certificate reads the same whichever sent
/// the request. Each names the cause and, where the library can help, the
/// setting that does, never a type of the transport's own library.
package enum TransportFailureText {
    /// Nothing accepted the connection at `authority` (`ECONNREFUSED`).
    package static func refused(_ authority: String) -> String {
        "\(authority) refused the connection (no server listens there)"
    }

    /// The name in `host` has no address (`NXDOMAIN` and the like).
    package static func unresolvable(_ host: String) -> String {
        "the host name \(host) does not resolve to an address"
    }

    /// The server's certificate chains to none of the trusted roots.
    /// `rootsFile` is the file the roots came from, when the user gave one.
    package static func untrustedCertificate(_ authority: String, rootsFile: String?, orExpired: Bool = false) -> String {
        let why = orExpired ? "self-signed or unknown issuer, or expired" : "self-signed or unknown issuer"
        if let rootsFile {
            return "the server's certificate for \(authority) is not trusted by the roots in \(rootsFile) (\(why))"
        }
        return "the server's certificate for \(authority) is not trusted (\(why)): add its issuer to TLSSettings.trustRoots"
    }

    /// The advice ending a certificate failure that the server must fix.
    package static let skipVerification = "(TLSSettings.verifiesServer = false skips verification)"

    /// The server asked for a client certificate and got none.
    package static func clientCertificateRequired(_ authority: String) -> String {
        "the server at \(authority) requires a client certificate: give one with TLSSettings.clientIdentity"
    }
}
