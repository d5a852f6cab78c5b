import Foundation
import NIOSSL
import RequestBuilder

extension TLSSettings {
    /// The NIOSSL configuration for these settings, every file read now, so
    /// a file at fault is an error naming it before any request is sent.
    func makeTLSConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if !verifiesServer {
            configuration.certificateVerification = .none
        }
        switch trustRoots {
        case .system:
            break
        case .pemFile(let path):
            configuration.trustRoots = .certificates(try Self.certificates(inFile: path, role: "CA certificate file"))
        case .openSSLLocations(let file, let directory):
            if let directory {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw RequestError.invalidRequest("the CA certificate directory \(directory) (SSL_CERT_DIR) is not a readable directory")
                }
            }
            switch (file, directory) {
            case let (file?, directory):
                // A system bundle (150 certificates) is checked for PEM, not
                // parsed: BoringSSL loads it when the first TLS connection
                // needs it, so a plain http:// request never pays for it.
                let bytes = try Self.read(file, role: "CA certificate file (SSL_CERT_FILE)")
                guard Self.holdsPEMCertificate(bytes) else {
                    throw RequestError.invalidRequest("the CA certificate file (SSL_CERT_FILE) \(file) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
                }
                configuration.trustRoots = .file(file)
                if let directory { configuration.additionalTrustRoots = [.file(directory)] }
            case let (nil, directory?):
                configuration.trustRoots = .file(directory)
            case (nil, nil):
                break
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
        return configuration
    }

    /// The contents of `path`, or an error naming it.
    private static func read(_ path: String, role: String) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RequestError.invalidRequest("cannot read the \(role) \(path): \(Self.reason(error))", underlying: error)
        }
    }

    /// Whether `bytes` hold a PEM certificate's first line.
    private static func holdsPEMCertificate(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----")
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
        if text.contains("ENCRYPTED") {
            throw RequestError.invalidRequest("the private key in \(path) is encrypted; decrypt it first (openssl pkey -in \(path) -out key.pem)")
        }
        guard text.contains("PRIVATE KEY-----") else {
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
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError: return "No such file or directory"
        case NSFileReadNoPermissionError: return "Permission denied"
        default: return nsError.localizedDescription
        }
    }
}
