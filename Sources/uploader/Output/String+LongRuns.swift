import UploaderItems

extension String {
    /// The text with every run of characters without a space longer than
    /// an echoed value (``echoLimit``, and the quotes or punctuation around
    /// it) cut to ``echoLimit`` characters with `…`: a server's 5,000-character
    /// reason phrase or a 6,000-character path inside a library's sentence
    /// is cut as a value the tool echoes itself would be. A URL past the
    /// limit is cut too, after its credentials were hidden.
    var cuttingLongRuns: String {
        let limit = String.echoLimit + 8
        guard count > limit else { return self }
        var result = ""
        var run = ""
        func flush() {
            result += run.count > limit ? String(run.prefix(String.echoLimit)) + "…" : run
            run = ""
        }
        for character in self {
            if character.isWhitespace {
                flush()
                result.append(character)
            } else {
                run.append(character)
            }
        }
        flush()
        return result
    }
}
