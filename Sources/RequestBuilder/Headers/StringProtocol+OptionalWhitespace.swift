extension StringProtocol {
    /// The text without the spaces and tabs around it: HTTP's optional
    /// whitespace (OWS, RFC 9110 §5.6.3), which field values and list
    /// members may carry. (Foundation's `trimmingCharacters(in:)` would link
    /// the whole of it on Linux; see `ConditionLock` in HTTPBody.)
    package var trimmingOptionalWhitespace: SubSequence {
        let isOptionalWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isOptionalWhitespace($0) }),
            let last = lastIndex(where: { !isOptionalWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
