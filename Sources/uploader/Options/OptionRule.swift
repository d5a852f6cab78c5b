import UploaderItems

/// One option's row of the options × kinds table: its spellings, whether
/// it takes a value, and the kinds of upload that refuse it, each with the
/// reason a person reads. ``table`` holds a row for every option declared
/// in ``UploaderOptions``: it is the only place an option is refused for a
/// kind, `CommandLineSplit` reads from it which options take a value, and
/// the help's and the docs' per-kind notes are made from it.
struct OptionRule: Sendable {
    /// Every spelling, short before long (`-o`, `--output`).
    let names: [String]
    /// Whether it takes a value (`--output FILE`), not a flag.
    let takesValue: Bool
    /// The kinds that refuse it, each with the rest of its message, which
    /// says why or what to do instead; every other kind takes it.
    let refusals: [UploadKind: String]
    /// Whether the command gives it.
    let isGiven: @Sendable (UploaderOptions, CommandLineSplit) -> Bool
    /// The property it sets, for an option the parser reads (`nil` for
    /// `-F` and `-H`, which ``CommandLineSplit`` takes before the parser).
    let property: OptionProperty?

    /// A row for an option the parser reads: `names` as typed, the
    /// property it sets, and the refusals.
    init(_ names: String..., sets property: OptionProperty, refusals: [UploadKind: String] = [:]) {
        self.names = names
        self.takesValue = property.takesValue
        self.refusals = refusals
        self.isGiven = { options, _ in property.isSet(options) }
        self.property = property
    }

    /// A row for an option ``CommandLineSplit`` takes from the command
    /// line itself: `names` as typed, the refusals, and how to tell it is
    /// given.
    init(
        _ names: String..., value takesValue: Bool, refusals: [UploadKind: String] = [:],
        isGiven: @escaping @Sendable (UploaderOptions, CommandLineSplit) -> Bool
    ) {
        self.names = names
        self.takesValue = takesValue
        self.refusals = refusals
        self.isGiven = isGiven
        self.property = nil
    }

    /// The option as messages name it: `-L/--follow`.
    var option: String { names.joined(separator: "/") }

    /// The long name the parser is given its value under (`--output`).
    var longName: String { names.first { $0.hasPrefix("--") } ?? names[0] }

    /// The message for giving the option to `kind`, when `kind` refuses it.
    func message(for kind: UploadKind) -> String? {
        refusals[kind].map { "\(option) does not apply to \(kind.name)\($0)" }
    }

    /// The first option the command gives that its kind refuses, as bad
    /// input naming the option and the kind; `nil` when the kind takes all.
    static func refusal(of options: UploaderOptions, commandLine: CommandLineSplit, kind: UploadKind) -> InputError? {
        for rule in table where rule.refusals[kind] != nil && rule.isGiven(options, commandLine) {
            return rule.message(for: kind).map { InputError(.conflictingInput, $0) }
        }
        return nil
    }

    /// Each spelling of every option that takes a value, and the long name
    /// the parser is given the value under.
    static let valueNames: [String: String] = Dictionary(
        table.filter(\.takesValue).flatMap { rule in rule.names.map { ($0, rule.longName) } }
    ) { first, _ in first }
}
