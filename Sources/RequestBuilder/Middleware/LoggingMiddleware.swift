import Foundation
import HTTPBody
public import HTTPTypes
public import Logging

/// Logs each request through swift-log: method, URL, status, duration, and
/// bytes sent and received, with credentials redacted.
///
/// One line per request, at a level that matches how it ended (``Levels``:
/// `info` for a success, `notice` for a 4xx, `error` for a 5xx or a failure
/// by default); header fields at `trace`, with the values of `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie` replaced by `<redacted>`.
/// The default logger discards everything, so logging costs nothing until
/// a logger is injected.
public struct LoggingMiddleware: RequestMiddleware {
    /// Where the lines go.
    public var logger: Logger
    /// The level of each request's line, by outcome.
    public var levels: Levels

    /// The fields whose values are never logged.
    public static let redactedFields: Set<HTTPField.Name> = [
        .authorization, .proxyAuthorization, .cookie, .setCookie,
    ]

    /// Creates the middleware.
    public init(logger: Logger = Logger(label: "RequestBuilder", factory: { _ in SwiftLogNoOpLogHandler() }), levels: Levels = Levels()) {
        self.logger = logger
        self.levels = levels
    }

    /// Passes the request on and logs how it went: one line when the head
    /// arrives, one at `debug` when the body has been read.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        let target = request.describedTarget
        let sent = request.body?.length.map(String.init) ?? (request.body == nil ? "0" : "unknown")
        logger.trace("\(target) request headers: \(Self.redacted(request.head.headerFields))")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            var response = try await next(request)
            let elapsed = clock.now - start
            logger.log(level: levels.level(for: response.status), "\(target) -> \(response.status.code) in \(Self.milliseconds(elapsed)) ms, sent \(sent) bytes")
            logger.trace("\(target) response headers: \(Self.redacted(response.headerFields))")
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
    static func redacted(_ fields: HTTPFields) -> String {
        fields.map { field in
            let value = redactedFields.contains(field.name) ? "<redacted>" : field.value
            return "\(field.name.rawName): \(value)"
        }.joined(separator: ", ")
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
    /// Logs each request to `logger`; see ``LoggingMiddleware``.
    public static func logging(to logger: Logger, levels: LoggingMiddleware.Levels = .init()) -> LoggingMiddleware {
        LoggingMiddleware(logger: logger, levels: levels)
    }
}
