import Foundation
import ResumableUploads
import Testing
import UploaderItems
@testable import uploader

/// The reader of state files earlier versions wrote (`{"command", "state"}`),
/// which the resume store rewrites in today's form on load.
@Suite struct LegacyStateRecordTests {
    private static let tusState = #"{"uploadProtocol":"tus","uploadURL":"http://127.0.0.1:8080/files/1","offset":1024,"body":{"length":4096,"files":[]}}"#

    @Test func aStateOfTheKindAskedForIsRewrittenExactlyAsTheStoreWritesIt() throws {
        let data = Data(#"{"command": "--tus http://alice:sekrit@127.0.0.1:8080/files/ v@/tmp/v", "state": \#(Self.tusState)}"#.utf8)
        let legacy = try #require(LegacyStateRecord<ResumableUploadState>(data))
        #expect(legacy.command == "--tus http://alice:sekrit@127.0.0.1:8080/files/ v@/tmp/v")
        guard case .state(let state) = legacy.content else {
            Issue.record("read as another kind's record: \(legacy.content)")
            return
        }
        #expect(state.offset == 1024)
        let store = try ResumeStore<ResumableUploadState>.encode(.init(commandDigest: "d1", state: state))
        #expect(try legacy.rewritten(commandDigest: "d1") == store)
    }

    @Test func anotherKindsRecordKeepsItsMembersWithTheDigestForTheCommand() throws {
        let data = Data(#"{"command": "s3://b/k x@/y", "state": {"uploadID": "u", "partSize": 5242880, "ratio": 0.5}, "extra": [1, null]}"#.utf8)
        let legacy = try #require(LegacyStateRecord<ResumableUploadState>(data))
        let rewritten = try legacy.rewritten(commandDigest: "d2")
        let members = try JSONDecoder().decode([String: LegacyJSONValue].self, from: rewritten)
        #expect(members == [
            "commandDigest": .string("d2"),
            "state": .object(["uploadID": .string("u"), "partSize": .integer(5_242_880), "ratio": .number(0.5)]),
            "extra": .array([.integer(1), .null]),
        ])
    }

    @Test(arguments: [
        #"{"command": "p:http://bob:sekrit@"#, #"{"command": "only a command"}"#, #"{"command": 7, "state": {}}"#,
        #"{"state": {}}"#, "[]", "", "\u{FF}",
    ])
    func whatIsNotALegacyRecordIsNotRead(_ text: String) {
        #expect(LegacyStateRecord<ResumableUploadState>(Data(text.utf8)) == nil)
    }
}
