import ArgumentParser
@testable import uploader
import Foundation

/// The command's options as swift-argument-parser describes them (the JSON
/// behind `--experimental-dump-help`, ArgumentParserToolInfo's `ToolInfoV0`),
/// so that what needs their names reads them from their one declaration.
enum OptionNames {
    /// Each name of every option that takes a value (`-o`, `--output`), and
    /// the option's long name (its first, else its preferred one). Empty if
    /// the description cannot be read, which UploaderOptionsTests would show.
    static var takingAValue: [String: String] {
        var names: [String: String] = [:]
        for argument in arguments where argument.kind == "option" {
            let spellings = (argument.names ?? []).map(\.spelling)
            guard let long = argument.names?.first(where: { $0.kind == "long" })?.spelling ?? argument.preferredName?.spelling ?? spellings.first else { continue }
            for spelling in spellings { names[spelling] = long }
        }
        return names
    }

    /// Every named argument of ``Uploader`` (options and flags, `--help`
    /// and `--version` included).
    static var arguments: [Argument] {
        let json = Data(Uploader._dumpHelp().utf8)
        return ((try? JSONDecoder().decode(ToolInfo.self, from: json))?.command.arguments ?? []).filter { $0.names != nil }
    }

    /// The part of `ToolInfoV0` read here.
    private struct ToolInfo: Decodable {
        struct Command: Decodable {
            var arguments: [Argument]?
        }

        var command: Command
    }

    /// One argument: `kind` is `option` (takes a value), `flag` or `positional`.
    struct Argument: Decodable {
        var kind: String
        var names: [Name]?
        var preferredName: Name?
    }

    /// One name of an argument: `kind` is `long`, `short` or `longWithSingleDash`.
    struct Name: Decodable {
        var kind: String
        var name: String

        /// The name as typed: `--output`, `-o`, `-output`.
        var spelling: String {
            switch kind {
            case "long": "--\(name)"
            default: "-\(name)"
            }
        }
    }
}
