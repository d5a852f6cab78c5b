public import HTTPTypes
public import Logging

extension LoggingMiddleware {
    /// The level of a request's line, by how it ended: a log filtered at
    /// `notice` shows the client errors and failures and nothing routine.
    public struct Levels: Sendable, Hashable {
        /// A response with a status below 400; `info` by default.
        public var success: Logger.Level
        /// A 4xx response; `notice` by default.
        public var clientError: Logger.Level
        /// A 5xx response; `error` by default.
        public var serverError: Logger.Level
        /// No response: a connection failure, a timeout, a body that could
        /// not be read; `error` by default. A cancelled request is logged at
        /// ``success``'s level: the caller chose to stop it.
        public var failure: Logger.Level

        /// Creates levels; every outcome has a default.
        public init(success: Logger.Level = .info, clientError: Logger.Level = .notice, serverError: Logger.Level = .error, failure: Logger.Level = .error) {
            self.success = success
            self.clientError = clientError
            self.serverError = serverError
            self.failure = failure
        }

        /// The level for a response with `status`.
        public func level(for status: HTTPResponse.Status) -> Logger.Level {
            switch status.code {
            case 500...: serverError
            case 400..<500: clientError
            default: success
            }
        }

        /// The level for a request that ended with `error` instead of a response.
        public func level(for error: any Error) -> Logger.Level {
            (error as? RequestError)?.code == .cancelled ? success : failure
        }
    }
}
