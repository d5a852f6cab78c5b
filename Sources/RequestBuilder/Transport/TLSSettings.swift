public import Foundation

/// How a transport verifies servers and identifies itself over HTTPS, with
/// no TLS library in sight: trust roots, skipping verification, and a client
/// certificate, the choices curl offers as `--cacert`, `--insecure` and
/// `--cert`/`--key`.
///
/// ```swift
/// var tls = TLSSettings.fromEnvironment()          // SSL_CERT_FILE / SSL_CERT_DIR, else the system's
/// tls.trustRoots = .pemFile("/etc/staging/ca.pem") // replaces the store
/// tls.clientIdentity = .init(certificateFile: "me.pem", keyFile: "me.key")
/// ```
///
/// The files are read when a transport is made from the settings, so an
/// unreadable file, an encrypted key or a key that does not match its
/// certificate is an error then, naming the file, before anything is sent.
public struct TLSSettings: Sendable, Hashable {
    /// The certificates a server's certificate must chain to.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store.
        case system
        /// A PEM file of one or more CA certificates, which replaces the
        /// system's store (curl's `--cacert`).
        case pemFile(String)
        /// OpenSSL's locations: a PEM file (`SSL_CERT_FILE`) and a hashed
        /// directory of PEM certificates (`SSL_CERT_DIR`, as `openssl rehash`
        /// makes it), either or both, which together replace the system's
        /// store; both are trusted when both are given. A location that
        /// cannot be used fails `https://` requests only, with an error
        /// naming it: a plain `http://` request needs no roots.
        case openSSLLocations(file: String?, directory: String?)
    }

    /// A client certificate for servers that ask for one.
    public struct ClientIdentity: Sendable, Hashable {
        /// A PEM file holding the certificate (and any intermediates after it).
        public var certificateFile: String
        /// A PEM file holding the unencrypted private key; `nil` when the key
        /// is in ``certificateFile``.
        public var keyFile: String?

        /// Creates an identity from PEM files.
        ///
        /// - Parameters:
        ///   - certificateFile: The certificate's PEM file (curl's `--cert`).
        ///   - keyFile: The key's PEM file (curl's `--key`), or `nil` when the
        ///     key follows the certificate in `certificateFile`.
        public init(certificateFile: String, keyFile: String? = nil) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// The roots servers are verified against; the system's by default.
    public var trustRoots: TrustRoots
    /// Whether servers' certificates are verified at all; `false` is curl's
    /// `--insecure`: anyone on the path can read and change the exchange.
    public var verifiesServer: Bool
    /// The certificate presented to servers that ask for one, if any.
    public var clientIdentity: ClientIdentity?

    /// Creates settings; the defaults verify servers against the system's store.
    ///
    /// - Parameters:
    ///   - trustRoots: The roots to verify servers against.
    ///   - verifiesServer: `false` to skip verification (`--insecure`).
    ///   - clientIdentity: A client certificate, if servers ask for one.
    public init(trustRoots: TrustRoots = .system, verifiesServer: Bool = true, clientIdentity: ClientIdentity? = nil) {
        self.trustRoots = trustRoots
        self.verifiesServer = verifiesServer
        self.clientIdentity = clientIdentity
    }

    /// The settings curl and OpenSSL take from the environment: the trust
    /// roots from `SSL_CERT_FILE` and `SSL_CERT_DIR` when either is set and
    /// not empty (both, as Debian and most CI images set them), else the
    /// system's store.
    ///
    /// - Parameter environment: The variables to read; the process's by default.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TLSSettings {
        let file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        if file == nil && directory == nil { return TLSSettings() }
        return TLSSettings(trustRoots: .openSSLLocations(file: file, directory: directory))
    }
}
