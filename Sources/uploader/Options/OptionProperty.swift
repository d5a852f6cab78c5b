import ArgumentParser

/// The property of ``UploaderOptions`` an option sets, for its row of the
/// options × kinds table: whether the option takes a value, whether a
/// command gives it, and how a spelling sets it, as swift-argument-parser
/// would (`init(argument:)` reads a value as the parser reads it).
struct OptionProperty: Sendable {
    /// Whether the option takes a value (`--timeout 5`), not a flag.
    let takesValue: Bool
    /// Whether the options hold anything but the default for it.
    let isSet: @Sendable (UploaderOptions) -> Bool
    /// Sets it from a spelling and, for an option that takes one, its
    /// value; `false` for a value the parser would refuse, so that the
    /// parser gives its own message for it.
    let assign: @Sendable (inout UploaderOptions, _ spelling: String, _ value: String?) -> Bool

    // Each property is taken as an autoclosure: a key path literal is made
    // (by the runtime, from its pattern) when first used, so a command pays
    // for the rows it gives or checks, not for all of the table's.

    /// A flag: giving it sets the property.
    static func flag(_ property: @autoclosure @escaping @Sendable () -> any WritableKeyPath<UploaderOptions, Bool> & Sendable) -> OptionProperty {
        OptionProperty(takesValue: false, isSet: { $0[keyPath: property()] }) { options, _, _ in
            options[keyPath: property()] = true
            return true
        }
    }

    /// A flag with an inversion (`--progress`, `--no-progress`): the
    /// spelling that starts with `--no-` sets `false`, the other `true`.
    static func inversion(_ property: @autoclosure @escaping @Sendable () -> any WritableKeyPath<UploaderOptions, Bool?> & Sendable) -> OptionProperty {
        OptionProperty(takesValue: false, isSet: { $0[keyPath: property()] != nil }) { options, spelling, _ in
            options[keyPath: property()] = !spelling.hasPrefix("--no-")
            return true
        }
    }

    /// An option that takes a value, read as the parser reads it.
    static func value<Value: ExpressibleByArgument>(
        _ property: @autoclosure @escaping @Sendable () -> any WritableKeyPath<UploaderOptions, Value?> & Sendable
    ) -> OptionProperty {
        OptionProperty(takesValue: true, isSet: { $0[keyPath: property()] != nil }) { options, _, text in
            guard let text, let value = Value(argument: text) else { return false }
            options[keyPath: property()] = value
            return true
        }
    }
}

extension OptionRule {
    /// The options of a command, set on ``UploaderOptions/defaults`` from
    /// the table without asking swift-argument-parser, whose reflection of
    /// the declarations is most of a short command's start-up; `nil` when
    /// the parser must judge (an unknown or bundled spelling, an option
    /// given twice, a value it would refuse, options that do not validate),
    /// so that every message stays the parser's own. `arguments` are the
    /// options as ``CommandLineSplit`` hands them on: a value option as
    /// `--name=value`, a flag as typed. UploaderOptionsTests holds the
    /// result equal to the parser's for every row.
    static func options(assigning arguments: [String]) -> UploaderOptions? {
        var options = UploaderOptions.defaults
        var given = Set<Int>()
        for argument in arguments {
            let spelling: String, value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                (spelling, value) = (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
            } else {
                (spelling, value) = (argument, nil)
            }
            guard let row = rowIndex[spelling], given.insert(row).inserted,
                let property = table[row].property, property.takesValue == (value != nil),
                property.assign(&options, spelling, value)
            else { return nil }
        }
        do {
            try options.validate()
            try options.validateTimes(typed: arguments)
        } catch {
            return nil
        }
        return options
    }

    /// Each spelling's row in ``table``.
    private static let rowIndex: [String: Int] = Dictionary(
        table.enumerated().flatMap { index, rule in rule.names.map { ($0, index) } }
    ) { first, _ in first }
}
