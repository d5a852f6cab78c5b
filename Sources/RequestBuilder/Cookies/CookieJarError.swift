import Foundation
public import HTTPBody

/// Why a cookie file could not be read: the line at fault and what is
/// wrong with it.
public struct CookieJarError: DescribedError, Sendable, Equatable {
    /// The line at fault, counted from 1.
    public let line: Int
    /// What is wrong with it, such as "the secure flag is 'yes'; give TRUE or FALSE".
    public let reason: String

    /// Creates an error for `line`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 3: the secure flag is 'yes'; give TRUE or FALSE`.
    public var description: String { "line \(line): \(reason)" }
}
