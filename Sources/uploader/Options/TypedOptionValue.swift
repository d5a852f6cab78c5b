import ArgumentParser
import UploaderItems

extension UploaderOptions {
    /// The text the last `option VALUE` or `option=VALUE` of `arguments`
    /// (the options as the parser is given them) gave, as typed: a message
    /// echoes `--timeout 0` as `0`, where the parsed number would print
    /// `0.0`. `nil` when the option is not given.
    static func typedValue(of option: String, in arguments: [String]) -> String? {
        var value: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { break }
            if argument == option, let next = rest.first {
                value = next
                rest = rest.dropFirst()
            } else if argument.hasPrefix(option + "=") {
                value = String(argument.dropFirst(option.count + 1))
            }
        }
        return value
    }

    /// `--timeout`'s and `--retry-max-time`'s ranges, each message echoing
    /// the value as typed in `arguments`, which the options were parsed from.
    func validateTimes(typed arguments: [String]) throws {
        if let retryMaxTime, !(retryMaxTime > 0 && retryMaxTime <= Self.maximumTimeout) {
            throw ValidationError("--retry-max-time \(Self.typedValue(of: "--retry-max-time", in: arguments)?.echoed ?? "\(retryMaxTime)"): the time must be a positive number of seconds, at most \(Int(Self.maximumTimeout))")
        }
        if let timeout, !(timeout > 0 && timeout <= Self.maximumTimeout) {
            throw ValidationError("--timeout \(Self.typedValue(of: "--timeout", in: arguments)?.echoed ?? "\(timeout)"): the timeout must be a positive number of seconds, at most \(Int(Self.maximumTimeout))")
        }
    }
}
