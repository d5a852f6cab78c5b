public import Foundation

/// An error of this package whose `description` is one sentence a person
/// can read, naming the thing at fault.
///
/// Conforming gives it `LocalizedError`'s `errorDescription`, so
/// `localizedDescription` (what a SwiftUI alert or a UIKit label shows)
/// reads as `"\(error)"` does, rather than Foundation's "The operation could
/// not be completed". A type adds a `recoverySuggestion` where it knows one.
public protocol DescribedError: LocalizedError, CustomStringConvertible {}

extension DescribedError {
    /// The error's `description`.
    public var errorDescription: String? { description }
}
