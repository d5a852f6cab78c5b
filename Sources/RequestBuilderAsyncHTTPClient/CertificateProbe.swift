import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// What a server's own certificate says about its dates, learnt by a second
/// handshake after one failed verification. BoringSSL's error for a failed
/// verification reads the same for an unknown issuer and an expired
/// certificate; the user needs to know which, since only the first is
/// theirs to fix (`--cacert`). The probe reads the certificate the server
/// presents, refuses it before the handshake ends, and sends no request.
enum CertificateProbe {
    enum Finding: Equatable {
        /// The certificate's last valid instant has passed.
        case expired(Date)
        /// The certificate's first valid instant is still to come.
        case notYetValid(Date)
        /// Its dates hold: the failure was its issuer.
        case currentDates
    }

    /// Reads the certificate `host:port` presents; `nil` when it cannot be
    /// read in time: connecting and the handshake each get `limit` (the
    /// server gone, no certificate); the connection runs on `group`.
    static func check(host: String, port: Int, within limit: Duration, on group: any EventLoopGroup) async -> Finding? {
        guard let context = try? NIOSSLContext(configuration: .makeClientConfiguration()) else { return nil }
        let found = group.next().makePromise(of: NIOSSLCertificate?.self)
        // An IP address is not a server name (SNI takes names only).
        let serverName = isIPAddress(host) ? nil : host
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(saturating: limit))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(
                        context: context, serverHostname: serverName,
                        customVerificationCallback: { certificates, verdict in
                            found.succeed(certificates.first)
                            verdict.succeed(.failed)  // nothing is sent on this connection
                        }
                    )
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            found.succeed(nil)
            return nil
        }
        channel.closeFuture.whenComplete { _ in found.succeed(nil) }
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(saturating: limit)) { found.succeed(nil) }
        let certificate = try? await found.futureResult.get()
        timer.cancel()
        channel.close(promise: nil)
        guard let certificate else { return nil }
        let now = time(nil)
        if certificate.notValidAfter < now {
            return .expired(Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter)))
        }
        if certificate.notValidBefore > now {
            return .notYetValid(Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore)))
        }
        return .currentDates
    }

    /// An instant as a person reads it in a message: `2025-11-24 10:00 UTC`.
    /// (By hand: `DateFormatter` would link the whole of Foundation on Linux.)
    static func describe(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(date)" }
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2)) \(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)) UTC"
    }

    private static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
