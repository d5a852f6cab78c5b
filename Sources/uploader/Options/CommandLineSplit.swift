/// The command line read once, front to back: request items and `-F` parts
/// in the order typed, `-H` headers, and the options for the argument parser.
///
/// Items never reach swift-argument-parser: it keeps, for every value of an
/// array argument, the set of all earlier values' positions, which is
/// quadratic in the number of items. Here they cost one pass. Options that take a value are handed on as `--name=value`,
/// so a value that starts with `-` (`--timeout -1`) is read as that option's
/// value and judged by its range, not taken for an unknown option.
struct CommandLineSplit: Equatable {
    /// A positional argument or a `-F` part, in command-line order.
    enum Entry: Equatable {
        case positional(String)
        case formPart(String)
    }

    /// The method, URL and items, with the `-F` parts among them.
    var entries: [Entry] = []
    /// The values of `-H` / `--header`, in order.
    var headers: [String] = []
    /// Everything else, for the argument parser.
    var options: [String] = []

    /// Options that take a value in the next argument, by each of their
    /// names (`-o`, `--output`), and the long name the parser is given it
    /// under: read from the options × kinds table (``OptionRule/table``),
    /// which UploaderOptionsTests holds equal to the options' declarations.
    /// The parser's own `--generate-completion-script SHELL` takes one too,
    /// though no declaration here names it.
    static let valueOptions = OptionRule.valueNames.merging(["--generate-completion-script": "--generate-completion-script"]) { declared, _ in declared }

    /// Splits the arguments (without the program name).
    init(_ arguments: some Sequence<String>) {
        // Room for one entry an argument, reserved at once: grown by
        // doubling, the array of a long command line holds unused room.
        entries.reserveCapacity(arguments.underestimatedCount)
        var iterator = arguments.makeIterator()
        var onlyPositionals = false
        while let argument = iterator.next() {
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                entries.append(.positional(argument))
            } else if argument == "--" {
                onlyPositionals = true
            } else if argument == "-F" || argument == "--form-part" {
                guard let value = iterator.next() else { options.append(argument); continue }  // the parser reports the missing value
                entries.append(.formPart(value))
            } else if let value = argument.value(after: "--form-part=") ?? argument.value(after: "-F") {
                entries.append(.formPart(value))
            } else if argument == "-H" || argument == "--header" {
                guard let value = iterator.next() else { options.append(argument); continue }
                headers.append(value)
            } else if let value = argument.value(after: "--header=") ?? argument.value(after: "-H") {
                headers.append(value)
            } else if let name = Self.valueOptions[argument] {
                guard let value = iterator.next() else { options.append(argument); continue }
                options.append("\(name)=\(value)")
            } else {
                options.append(argument)
            }
        }
    }
}

private extension String {
    /// The rest of the string after `prefix`, when it starts with it.
    func value(after prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
