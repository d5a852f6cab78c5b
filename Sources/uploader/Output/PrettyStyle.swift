import ArgumentParser
import Foundation
import HTTPTypes
import UploaderItems

/// `--pretty`: how a JSON response body is shown, as HTTPie's option of
/// the same name. Bodies that are not JSON are always written as they came.
enum PrettyStyle: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Indented and coloured: the default on a terminal.
    case all
    /// Indented, no colour.
    case format
    /// Coloured, the server's own spacing kept.
    case colors
    /// The exact bytes the server sent: the default for a file or a pipe.
    case none

    /// Whether the body is re-indented.
    var indents: Bool { self == .all || self == .format }
    /// Whether the body's tokens are coloured.
    var colours: Bool { self == .all || self == .colors }

    /// The style a response gets: the one asked for, else `all` when the
    /// body goes to standard output on a terminal (`format`, no colour, when
    /// `NO_COLOR` is set or `TERM` is `dumb`), else `none` (a file or a pipe
    /// gets the server's bytes).
    static func resolved(
        _ asked: PrettyStyle?, target: OutputTarget, environment: [String: String] = ProcessEnvironment.variables
    ) -> PrettyStyle {
        if let asked { return asked }
        guard case .standardOutput = target, OutputFile.standardOutput.isTerminal else { return .none }
        return allowsColour(environment) ? .all : .format
    }

    /// Whether colour may be used unasked: not when `NO_COLOR` is set to
    /// anything (no-color.org) or the terminal is `dumb`.
    static func allowsColour(_ environment: [String: String]) -> Bool {
        !(environment["NO_COLOR"].map { !$0.isEmpty } ?? false) && environment["TERM"] != "dumb"
    }

    /// Whether a `Content-Type` names JSON: `application/json`, or any
    /// `+json` type (`application/problem+json`), parameters ignored.
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpaces.lowercased() } ?? ""
        return type == "application/json" || type == "text/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}
