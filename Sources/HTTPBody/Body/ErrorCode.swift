/// The kind of failure an error of this package reports in its `code`: a
/// value compared with the type's static members (`error.code == .tooLarge`)
/// and printed as its name, however it is printed.
///
/// Every error type's `Code` conforms, so each declares only its name and
/// its static members: equality and hashing follow the name, and the
/// description comes from here. A struct rather than an enum, so a new kind
/// of failure does not break a caller's exhaustive `switch`.
public protocol ErrorCode: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The code's name, as its static member is spelled (`tooLarge`).
    var name: String { get }
}

extension ErrorCode {
    /// The code's name, such as the static member's.
    public var description: String { name }

    /// No children: `dump` and test failures show the name alone
    /// (`recorded`), not the struct around it (`Kind(name: "recorded")`).
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
