/// Recovers the order in which positional items and `-F` parts were typed,
/// which the argument parser does not keep: parts must go out in that order.
enum ArgumentOrder {
    /// A positional argument or the value of a `-F` option, in command-line order.
    enum Entry: Equatable {
        case positional(String)
        case formPart(String)
    }

    /// Options that take a value in the next argument (besides `-F`).
    private static let valueOptions: Set<String> = [
        "--data", "-H", "--header", "--boundary", "-o", "--output", "--timeout", "--retry",
    ]

    /// Scans the raw arguments (without the program name) the way the parser does.
    static func entries(in arguments: [String]) -> [Entry] {
        var entries: [Entry] = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                entries.append(.positional(argument))
            } else if argument == "--" {
                onlyPositionals = true
            } else if argument == "-F" || argument == "--form-part" {
                if index < arguments.count {
                    entries.append(.formPart(arguments[index]))
                    index += 1
                }
            } else if argument.hasPrefix("--form-part=") {
                entries.append(.formPart(String(argument.dropFirst("--form-part=".count))))
            } else if argument.hasPrefix("-F") {
                entries.append(.formPart(String(argument.dropFirst(2))))
            } else if valueOptions.contains(argument) {
                index += 1
            }
        }
        return entries
    }
}
