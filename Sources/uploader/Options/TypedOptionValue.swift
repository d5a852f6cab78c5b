extension UploaderOptions {
    /// The text the last `option VALUE` or `option=VALUE` on the command
    /// line gave, as typed: a message echoes `--timeout 0` as `0`, where the
    /// parsed number would print `0.0`. `nil` when the option is not on the
    /// process's command line (options parsed from elsewhere, as in tests).
    static func typedValue(of option: String) -> String? {
        var value: String?
        var arguments = CommandLine.arguments.dropFirst()[...]
        while let argument = arguments.popFirst() {
            if argument == "--" { break }
            if argument == option, let next = arguments.first {
                value = next
                arguments = arguments.dropFirst()
            } else if argument.hasPrefix(option + "=") {
                value = String(argument.dropFirst(option.count + 1))
            }
        }
        return value
    }
}
