import Foundation
import FuzzSupport
import FuzzUploaderItems
import ObjectStorage
import ResumableUploads

/// Feeds a resume state file of the form earlier versions wrote
/// (`{"command": ..., "state": ...}`), as it may sit on disk (truncated,
/// edited, another tool's), to the reader that rewrites it in today's form,
/// with the state types the uploader keeps: `ResumableUploadState` (tus and
/// the IETF draft) and `S3MultipartUpload.State`.
///
/// Invariants: nothing traps; a record read is rewritten (or fails to
/// encode) with no `command` member left, its `commandDigest` the digest of
/// its command; the rewritten record reads back, as today's reader reads
/// it, to the same state (numbers compared as numbers: `2.0` may come back
/// `2`); and a resumable state read either way has an offset neither
/// negative nor past its body's length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLegacyState(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    check(data, as: ResumableUploadState.self) { state in
        fuzzCheck((0...max(0, state.body.length)).contains(state.offset) && state.body.length >= 0, "offset \(state.offset) of a \(state.body.length)-byte body read from \(String(decoding: data, as: UTF8.self).debugDescription)")
    }
    check(data, as: S3MultipartUpload.State.self) { _ in }
    return 0
}

/// The record today's reader (the uploader's resume store) decodes.
private struct Current<State: Decodable>: Decodable {
    var commandDigest: String
    var state: State
}

/// Stands in for the store's SHA-256: any function of the command will do
/// to see that the digest is the command's.
private func digest(_ command: String) -> String {
    "digest:" + String(command.utf8.count) + ":" + command.utf8.map { String($0, radix: 16) }.joined()
}

/// Reads `data` as a legacy record of `State`, rewrites it and reads it back.
private func check<State: Codable & Equatable>(_ data: Data, as: State.Type, holds: (State) -> Void) {
    guard let legacy = LegacyStateRecord<State>(data) else { return }
    let text = String(decoding: data, as: UTF8.self).debugDescription
    guard let rewritten = try? legacy.rewritten(commandDigest: digest(legacy.command)) else { return }
    guard let members = try? JSONDecoder().decode([String: LegacyJSONValue].self, from: rewritten) else {
        fuzzCheck(false, "the rewritten record of \(text) is not a JSON object: \(String(decoding: rewritten, as: UTF8.self))")
        return
    }
    fuzzCheck(members["command"] == nil, "the command is kept in the rewritten record of \(text)")
    fuzzCheck(members["commandDigest"] == .string(digest(legacy.command)), "the digest of \(legacy.command.debugDescription) is not the rewritten record's of \(text)")
    switch legacy.content {
    case .state(let state):
        holds(state)
        let current = try? JSONDecoder().decode(Current<State>.self, from: rewritten)
        fuzzCheck(current?.state == state, "\(state) of \(text) reads back as \(current.map { "\($0.state)" } ?? "nothing")")
    case .members(var expected):
        expected["commandDigest"] = .string(digest(legacy.command))
        fuzzCheck(sameJSON(.object(members), .object(expected)), "the members of \(text) read back as \(members)")
        // What the store then makes of it: today's state, or a refusal.
        if let current = try? JSONDecoder().decode(Current<State>.self, from: rewritten) {
            holds(current.state)
        }
    }
}

/// The same JSON value: numbers equal as numbers (`2.0` is `2`).
private func sameJSON(_ a: LegacyJSONValue, _ b: LegacyJSONValue) -> Bool {
    switch (a, b) {
    case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): return Double(x) == y
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameJSON)
    case (.object(let x), .object(let y)): return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameJSON(value, $0) } ?? false }
    default: return a == b
    }
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzLegacyState_main")
public func fuzzLegacyStateMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzLegacyState)
}
