/// Bad input on the command line: a malformed item, a missing file, a bad
/// header or URL. Caught before any connection is made; exits with status 2.
package struct InputError: Error, Equatable, CustomStringConvertible {
    /// What kind of input is at fault.
    package enum Code: Equatable, Sendable {
        /// A request item, `-F` part or `-H` header that does not parse.
        case malformedItem
        /// The URL argument, or a second one where items belong.
        case invalidURL
        /// A file named by an item or `--data @` that cannot be sent.
        case unusableFile
        /// Items or options that contradict each other.
        case conflictingInput
        /// The `-o` target.
        case invalidOutput
        /// A request the library refuses to build (a header, a path).
        case invalidRequest
    }

    /// What kind of input is at fault.
    package let code: Code
    /// One line naming the item at fault and saying what would be right.
    package let description: String

    package init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    package static func malformedItem(_ item: String, reason: String) -> InputError {
        InputError(.malformedItem, "'\(item.echoed)': \(reason)")
    }
}
