/// A name compared as written: two names are equal only when their Unicode
/// scalars are, so `é` as one scalar (NFC) and as `e` plus a combining
/// accent (NFD) stay two names. Swift's `String` equality treats canonically
/// equivalent text as equal, which would merge two JSON keys into one and
/// lose a field.
package struct ExactName: Hashable, Sendable {
    /// The name.
    package let text: String

    package init(_ text: String) { self.text = text }

    package static func == (lhs: ExactName, rhs: ExactName) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
