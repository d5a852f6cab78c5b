import Foundation
import HTTPBody
import HTTPTypes
public import Logging

/// Logs each request through swift-log: method, URL, status, duration, and
/// bytes sent and received, with credentials redacted.
///
/// One line per request, at a level that matches how it ended (``Levels``:
/// `info` for a success, `notice` for a 4xx, `error` for a 5xx or a failure
/// by default); header fields at `trace`. The values of credentials are
/// replaced by `<redacted>` everywhere, in header fields and in the URL's
/// query: ``Redaction/default`` names the usual ones, and ``redaction``
/// takes more. The default logger discards everything, so logging costs
/// nothing until a logger is injected.
///
/// The middleware logs what reaches it: middleware listed after it (closer
/// to the transport) act unseen. List it **last** so each attempt is logged
/// as it goes on the wire, with the `Authorization` that `.bearerToken`
/// adds (redacted) and the `401` that made it refresh the token:
///
/// ```swift
/// RequestClient(transport: transport, middleware: [.retry(), .bearerToken(tokens), .logging(to: logger)])
/// ```
///
/// Listed first, it logs one line per call to `send`, however many
/// attempts the later middleware made.
public struct LoggingMiddleware: RequestMiddleware {
    /// Where the lines go.
    public var logger: Logger
    /// The level of each request's line, by outcome.
    public var levels: Levels
    /// The header fields and query parameters whose values are never logged.
    public var redaction: Redaction

    /// Creates the middleware; list it last among a client's middleware to
    /// log every attempt (see ``LoggingMiddleware``).
    public init(
        logger: Logger = Logger(label: "RequestBuilder", factory: { _ in SwiftLogNoOpLogHandler() }),
        levels: Levels = Levels(),
        redaction: Redaction = .default
    ) {
        self.logger = logger
        self.levels = levels
        self.redaction = redaction
    }

    /// Passes the request on and logs how it went: one line when the head
    /// arrives, one at `debug` when the body has been read.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        // The request's own credentials stay hidden whatever this log's list says.
        let target = redaction.redacted(request.redaction.redacted(request.head)).describedTarget
        let sent = request.body?.length.map(String.init) ?? (request.body == nil ? "0" : "unknown")
        logger.trace("\(target) request headers: \(describe(request.redaction.redacted(request.head.headerFields)))")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            var response = try await next(request)
            let elapsed = clock.now - start
            logger.log(level: levels.level(for: response.status), "\(target) -> \(response.status.code) in \(Self.milliseconds(elapsed)) ms, sent \(sent) bytes")
            logger.trace("\(target) response headers: \(describe(request.redaction.redacted(response.headerFields)))")
            let logger = self.logger
            response.body = response.body.observingEnd { received, error in
                if let error {
                    logger.warning("\(target) response body failed after \(received) bytes: \(Self.redactedDescription(of: error))")
                } else {
                    logger.debug("\(target) received \(received) bytes")
                }
            }
            return response
        } catch {
            let elapsed = clock.now - start
            logger.log(level: levels.level(for: error), "\(target) failed after \(Self.milliseconds(elapsed)) ms, sent \(sent) bytes: \(Self.redactedDescription(of: error))")
            throw error
        }
    }

    /// The fields as `Name: value` pairs, secrets replaced.
    private func describe(_ fields: HTTPFields) -> String {
        redaction.redacted(fields).map { "\($0.name.rawName): \($0.value)" }.joined(separator: ", ")
    }

    private static func redactedDescription(of error: any Error) -> String {
        // RequestError descriptions never carry header values; other errors
        // are described by type only, since their text is not ours to vouch for.
        if let error = error as? RequestError { return error.description }
        return String(describing: type(of: error))
    }

    private static func milliseconds(_ duration: Duration) -> String {
        (duration.inSeconds * 1000).fixedPoint(digits: 1)
    }
}

extension RequestMiddleware where Self == LoggingMiddleware {
    /// Logs each request that reaches it to `logger`, credentials redacted;
    /// see ``LoggingMiddleware``.
    ///
    /// List it **last** (`[.retry(), .bearerToken(tokens), .logging(to: logger)]`):
    /// middleware after it act unseen, so listed before `.bearerToken` it
    /// shows neither the token's `401` nor the retry that followed.
    public static func logging(
        to logger: Logger,
        levels: LoggingMiddleware.Levels = .init(),
        redaction: LoggingMiddleware.Redaction = .default
    ) -> LoggingMiddleware {
        LoggingMiddleware(logger: logger, levels: levels, redaction: redaction)
    }
}
