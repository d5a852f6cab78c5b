/// `--print/-p WHAT`, HTTPie's letters for what a plain request writes to
/// its output, in this order: `H` the request head, `B` the request body,
/// `h` the response head, `b` the response body. Without it, the response
/// body alone (`b`), or, for a `HEAD` request whose output is a terminal,
/// the response head (`h`): a `HEAD` answer has no body to show.
struct PrintSelection: Equatable {
    var requestHead = false
    var requestBody = false
    var responseHead = false
    var responseBody = false

    /// The selection `letters` name, or `nil` when one is not of `HBhb` or
    /// there is none.
    init?(_ letters: String) {
        guard !letters.isEmpty else { return nil }
        for letter in letters {
            switch letter {
            case "H": requestHead = true
            case "B": requestBody = true
            case "h": responseHead = true
            case "b": responseBody = true
            default: return nil
            }
        }
    }

    /// The selection when `--print` is not given.
    static func unasked(method: String, outputIsTerminal: Bool) -> PrintSelection {
        var selection = PrintSelection()
        if method == "HEAD", outputIsTerminal { selection.responseHead = true } else { selection.responseBody = true }
        return selection
    }

    private init() {}

    /// Whether anything of the request is written.
    var writesRequest: Bool { requestHead || requestBody }
}
