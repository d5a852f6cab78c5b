import Foundation
import ResumableUploads
import Testing

/// A saved state read back from disk, where it may have been edited or
/// written by another tool.
@Suite struct ResumableUploadStateTests {
    private static func state(offset: String, length: String = "4096") -> Data {
        Data(#"{"uploadProtocol":"tus","uploadURL":"http://127.0.0.1:8080/files/1","offset":\#(offset),"body":{"length":\#(length),"files":[]}}"#.utf8)
    }

    @Test(arguments: ["0", "1024", "4096"])
    func anOffsetWithinTheBodyIsRead(_ offset: String) throws {
        let state = try JSONDecoder().decode(ResumableUploadState.self, from: Self.state(offset: offset))
        #expect(state.offset == Int64(offset))
    }

    @Test(arguments: [("-1", "4096"), ("4097", "4096"), ("0", "-1"), ("-9223372036854775808", "4096")])
    func anOffsetNegativeOrPastTheBodyIsRefused(_ offset: String, _ length: String) {
        #expect {
            try JSONDecoder().decode(ResumableUploadState.self, from: Self.state(offset: offset, length: length))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["offset"] && context.debugDescription == "the offset \(offset) is outside the body's \(length) bytes"
        }
    }
}
