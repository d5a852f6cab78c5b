package import Foundation

/// The record in a resume state file of a version before the state kept a
/// digest of the command: `{"command": "<the whole command>", "state": ...}`,
/// read from bytes that may be anything (truncated, another tool's).
///
/// ``rewritten(commandDigest:)`` writes it in today's form: the command's
/// digest in place of the command, the same state.
package struct LegacyStateRecord<State: Codable> {
    /// What the record holds besides its command.
    package enum Content {
        /// A state of the kind asked for.
        case state(State)
        /// Another kind of upload's record (`s3://` or resumable) without its
        /// command: kept as JSON, whatever its shape.
        case members([String: LegacyJSONValue])
    }

    /// The command the record belongs to, secrets included: digested, never kept.
    package var command: String
    /// The state, or the record's other members.
    package var content: Content

    /// The record `data` holds; `nil` when it is not a legacy record (no
    /// string `command`, no `state`, or not JSON).
    package init?(_ data: Data) {
        if let old = try? JSONDecoder().decode(Typed.self, from: data) {
            (command, content) = (old.command, .state(old.state))
            return
        }
        guard var object = try? JSONDecoder().decode([String: LegacyJSONValue].self, from: data),
            case .string(let command) = object.removeValue(forKey: "command"), object["state"] != nil
        else { return nil }
        (self.command, content) = (command, .members(object))
    }

    /// The record in today's form, as the resume store writes it (keys
    /// sorted, pretty-printed): `commandDigest` and the same state; a record
    /// of another kind keeps its members, its `command` replaced by
    /// `commandDigest`.
    ///
    /// - Throws: `EncodingError` when the state cannot be written as JSON.
    package func rewritten(commandDigest: String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        switch content {
        case .state(let state):
            return try encoder.encode(Current(commandDigest: commandDigest, state: state))
        case .members(var members):
            members["commandDigest"] = .string(commandDigest)
            return try encoder.encode(members)
        }
    }

    /// The record an earlier version wrote.
    private struct Typed: Decodable {
        var command: String
        var state: State
    }

    /// The record today's version writes.
    private struct Current: Encodable {
        var commandDigest: String
        var state: State
    }
}
