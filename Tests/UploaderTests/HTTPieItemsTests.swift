import Foundation
import TestSupport
import Testing

/// HTTPie's items from files as HTTPie itself sends them: each item list is
/// sent once by `http` (HTTPie 3.2.4, installed with the test servers'
/// packages) and once by `uploader` to the same server, and what arrives
/// must mean the same: the JSON values, the form pairs, the multipart
/// parts' names and bytes, the headers. Spacing and encoding choices that
/// mean the same (`{"a": 1}` and `{"a":1}`, `+` and `%20`) are not compared.
/// Where the contract differs from HTTPie on purpose (a query value from a
/// file is trimmed of all surrounding whitespace; `\@` is an escape only at
/// the start of a value), it is tested in ``ItemsFromFilesTests`` instead.
@Suite struct HTTPieItemsTests {
    static let cases: [(kind: String, items: [String])] = [
        ("json", ["note=@note.txt", "meta:=@meta.json", "X-Token:@token.txt", "lit=\\@home", "plain=x"]),
        ("json", ["Content-Type:", "a=1"]),
        ("form", ["note=@note.txt", "lit=\\@home", "X-Token:@token.txt"]),
        ("form", ["Content-Type:", "a=1"]),
        ("multipart", ["note=@note.txt", "lit=\\@x", "doc@meta.json"]),
    ]

    @Test(arguments: 0..<cases.count)
    func uploaderSendsWhatHTTPieSends(index: Int) async throws {
        let (kind, items) = Self.cases[index]
        let directory = try ItemsFromFilesTests.folder(ItemsFromFilesTests.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let python = try await TestPython.withServerPackages()
        let server = try await TestHTTPServer.start()
        let quoted = items.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let option = kind == "json" ? "" : "--\(kind)"
        let httpie = try await UploaderProcess.runShell(
            "'\(python)' -m httpie --ignore-stdin --print= \(option) POST http://127.0.0.1:\(server.port)/httpie \(quoted)",
            currentDirectory: directory
        )
        let ours = try await UploaderProcess.runShell("\"$UPLOADER\" --no-progress \(option) POST 127.0.0.1:\(server.port)/ours \(quoted)", currentDirectory: directory)
        try await server.stop()
        #expect(httpie.status == 0, "http: \(httpie.standardError)")
        #expect(ours.status == 0, "uploader: \(ours.standardError)")
        let requests = server.requests
        try #require(requests.count == 2)
        let (theirs, mine) = (requests[0], requests[1])
        #expect(mine.header("X-Token") == theirs.header("X-Token"), "\(items)")
        let theirType = theirs.header("Content-Type")
        let myType = mine.header("Content-Type")
        #expect((theirType == nil) == (myType == nil), "\(items): \(String(describing: theirType)) / \(String(describing: myType))")
        switch kind {
        case "json":
            let their = try JSONSerialization.jsonObject(with: Data(theirs.body ?? [])) as? NSDictionary
            let my = try JSONSerialization.jsonObject(with: Data(mine.body ?? [])) as? NSDictionary
            #expect(their != nil && my == their, "\(items): \(String(describing: their)) / \(String(describing: my))")
        case "form":
            #expect(Self.pairs(mine.body ?? []) == Self.pairs(theirs.body ?? []), "\(items)")
        default:
            let their = try ReceivedPart.parts(of: theirs).map { Self.nameAndContent($0) }
            let my = try ReceivedPart.parts(of: mine).map { Self.nameAndContent($0) }
            #expect(my.count == their.count && zip(my, their).allSatisfy { $0 == $1 }, "\(items): \(their) / \(my)")
        }
    }

    /// A form body's pairs, decoded (`+` and `%20` alike are a space).
    static func pairs(_ body: [UInt8]) -> [[String]] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            pair.split(separator: "=", omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
        }
    }

    /// A part's Content-Disposition (as both write it) and its bytes.
    static func nameAndContent(_ part: ReceivedPart) -> String {
        let disposition = part.headers.first { $0.lowercased().hasPrefix("content-disposition:") } ?? ""
        return disposition + " => " + String(decoding: part.content, as: UTF8.self)
    }
}
