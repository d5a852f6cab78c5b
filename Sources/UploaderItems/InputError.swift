/// Bad input on the command line: a malformed item, a missing file, a bad
/// header or URL. Caught before any connection is made; exits with status 2.
package struct InputError: Error, Equatable, CustomStringConvertible {
    /// One line naming the item at fault and saying what would be right.
    package let description: String

    package init(_ description: String) { self.description = description }

    package static func malformedItem(_ item: String, reason: String) -> InputError {
        InputError("'\(item.echoed)': \(reason)")
    }
}
