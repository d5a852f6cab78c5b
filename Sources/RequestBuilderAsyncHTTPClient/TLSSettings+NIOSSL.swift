import Foundation
import HTTPBody
import NIOCore
import NIOSSL
import RequestBuilder

extension TLSSettings {
    /// The NIOSSL configuration for these settings, every file read now, so
    /// a file at fault is an error naming it before any request is sent;
    /// and, when OpenSSL's locations (``TLSSettings/TrustRoots/openSSLLocations(file:directory:)``)
    /// cannot be used, the error each `https://` request gets instead of
    /// being sent. A plain `http://` request never needs them, as OpenSSL's
    /// own users find with the same variables set.
    func makeTLSConfiguration() throws -> (configuration: TLSConfiguration, httpsProblem: RequestError?) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // How long a connection this side closes waits for the server's
        // close_notify. NIOSSL keeps the connection's TLS handler (and its
        // last record buffer: 1 MiB after a 512 KiB chunk) until this
        // timeout even once the server has closed the socket without one, as
        // most HTTP servers do; with the 5 s default, an S3 upload whose
        // store closes each part's connection held about 36 of them at once.
        // A response read to its end needs no close_notify.
        configuration.shutdownTimeout = .milliseconds(100)
        var httpsProblem: RequestError?
        if !verifiesServer {
            configuration.certificateVerification = .none
        }
        switch trustRoots {
        case .system:
            break
        case .pemFile(let path):
            configuration.trustRoots = .certificates(try Self.certificates(inFile: path, role: "CA certificate file"))
        case .openSSLLocations(let file, let directory):
            do {
                (configuration.trustRoots, configuration.additionalTrustRoots) = try Self.trustRoots(file: file, directory: directory)
            } catch let problem as RequestError {
                // Unverified, a server needs no roots: curl's `-k` goes on too.
                httpsProblem = verifiesServer ? problem : nil
            }
        }
        if let identity = clientIdentity {
            let chain = try Self.certificates(inFile: identity.certificateFile, role: "client certificate file")
            let keyFile = identity.keyFile ?? identity.certificateFile
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(try Self.privateKey(inFile: keyFile))
            // NIOSSL checks the pair only when a context is made: make one
            // now, so a key that does not match is an error here, not a
            // handshake failure later.
            do {
                _ = try NIOSSLContext(configuration: configuration)
            } catch {
                throw RequestError.invalidRequest(
                    "the private key in \(keyFile) does not match the client certificate in \(identity.certificateFile)", underlying: error
                )
            }
        }
        return (configuration, httpsProblem)
    }

    /// The trust roots OpenSSL's two locations give, both trusted when both
    /// are set: the folder as a hashed directory (`openssl rehash`), whose
    /// certificates BoringSSL looks up by subject when a chain needs one,
    /// and the file as a PEM bundle. Checked now, read when the first TLS
    /// connection needs them.
    private static func trustRoots(
        file: String?, directory: String?
    ) throws -> (NIOSSLTrustRoots?, [NIOSSLAdditionalTrustRoots]) {
        if let directory {
            guard FileStatus.isDirectory(atPath: directory) == true else {
                throw RequestError.invalidRequest("the CA certificate directory \(directory) (SSL_CERT_DIR) is not a readable directory")
            }
        }
        if let file {
            // A system bundle (150 certificates) is checked for PEM, not
            // parsed: it is loaded when the first TLS connection needs it.
            guard try fileHoldsPEMCertificate(file, role: "CA certificate file (SSL_CERT_FILE)") else {
                throw RequestError.invalidRequest("the CA certificate file (SSL_CERT_FILE) \(file) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
        }
        switch (file, directory) {
        case let (file?, directory?):
            // NIOSSL reads an additional root as one PEM file, and a trust
            // root as a file or a hashed directory: the folder must be the latter.
            return (.file(directory), [.file(file)])
        case let (file?, nil):
            return (.file(file), [])
        case let (nil, directory?):
            return (.file(directory), [])
        case (nil, nil):
            return (nil, [])
        }
    }

    /// The contents of `path`, or an error naming it.
    private static func read(_ path: String, role: String) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RequestError.invalidRequest("cannot read the \(role) \(path): \(Self.reason(error))", underlying: error)
        }
    }

    /// Whether the file at `path` holds a PEM certificate's first line, read
    /// only as far as that line. A system bundle has it in its first
    /// kilobytes, so a request reads 16 KiB of a 200 KiB file instead of
    /// all of it (5 % of a tiny plain http:// upload's time, with
    /// `SSL_CERT_FILE` set as many systems set it).
    private static func fileHoldsPEMCertificate(_ path: String, role: String) throws -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, role: role, errno: errno) }
        defer { close(descriptor) }
        let marker = Array(certificateMarker.utf8)
        var window: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { readBytes(descriptor, into: $0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable(path, role: role, errno: errno)
            }
            if count == 0 { return false }
            window.append(contentsOf: chunk[..<count])
            if window.firstRange(of: marker) != nil { return true }
            // Keep what could be the start of a marker cut by the chunk's end.
            window.removeFirst(max(0, window.count - (marker.count - 1)))
        }
    }

    /// The error for a file that cannot be read, in the system's words.
    private static func unreadable(_ path: String, role: String, errno code: Int32) -> RequestError {
        RequestError.invalidRequest("cannot read the \(role) \(path): \(String(cString: strerror(code)))")
    }

    /// A PEM certificate's first line.
    private static let certificateMarker = "-----BEGIN CERTIFICATE-----"

    /// Whether `bytes` hold a PEM certificate's first line.
    private static func holdsPEMCertificate(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).firstRange(of: certificateMarker) != nil
    }

    /// The PEM certificates in `path`: at least one, or an error naming it.
    private static func certificates(inFile path: String, role: String) throws -> [NIOSSLCertificate] {
        let bytes = try read(path, role: role)
        guard holdsPEMCertificate(bytes) else {
            throw RequestError.invalidRequest("the \(role) \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        do {
            return try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw RequestError.invalidRequest("the \(role) \(path) holds a PEM certificate that cannot be parsed", underlying: error)
        }
    }

    /// The unencrypted PEM private key in `path`, or an error naming it.
    private static func privateKey(inFile path: String) throws -> NIOSSLPrivateKey {
        let bytes = try read(path, role: "private key file")
        let text = String(decoding: bytes, as: UTF8.self)
        // Refused before BoringSSL sees it: nothing may ask for a passphrase.
        if text.firstRange(of: "ENCRYPTED") != nil {
            throw RequestError.invalidRequest("the private key in \(path) is encrypted; decrypt it first (openssl pkey -in \(path) -out key.pem)")
        }
        guard text.firstRange(of: "PRIVATE KEY-----") != nil else {
            throw RequestError.invalidRequest("the private key file \(path) holds no PEM private key (-----BEGIN PRIVATE KEY-----)")
        }
        do {
            return try NIOSSLPrivateKey(bytes: bytes, format: .pem)
        } catch {
            throw RequestError.invalidRequest("the private key in \(path) cannot be parsed", underlying: error)
        }
    }

    /// A file error as the system's words (`No such file or directory`).
    private static func reason(_ error: any Error) -> String {
        SystemErrorText.describe(fileError: error)
    }
}

/// `read(2)`, which `TLSSettings.read(_:role:)` hides inside the type.
private func readBytes(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}
