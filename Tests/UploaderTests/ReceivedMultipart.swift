import Foundation
import TestSupport
import Testing

/// A multipart/form-data body as a server reads it, split byte by byte with
/// none of the library's code: RFC 2046's delimiters (`--BOUNDARY` first,
/// then `CRLF--BOUNDARY`), each part's header lines up to the blank line, its
/// content exactly, and the closing `--BOUNDARY--CRLF` with nothing after.
struct ReceivedPart: Equatable, CustomStringConvertible {
    var headers: [String]
    var content: [UInt8]

    var description: String { headers.joined(separator: " | ") + " => \(content.count) bytes" }

    /// The `filename="…"` parameter's raw bytes, if any.
    var filename: [UInt8]? {
        guard let disposition = headers.first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
              let range = disposition.range(of: "; filename=\"") else { return nil }
        return Array(disposition[range.upperBound...].dropLast().utf8)
    }

    /// The parts of a recorded request's body.
    static func parts(of request: TestHTTPServer.RecordedRequest) throws -> [ReceivedPart] {
        let type = try #require(request.header("Content-Type"))
        let boundary = try #require(type.components(separatedBy: "boundary=").last)
        let body = try #require(request.body)
        #expect(Int64(body.count) == request.bodyByteCount)
        return try parts(of: body, boundary: boundary)
    }

    static func parts(of body: [UInt8], boundary: String) throws -> [ReceivedPart] {
        let first = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        try #require(body.starts(with: first + Array("\r\n".utf8)), "no opening delimiter")
        var parts: [ReceivedPart] = []
        var start = first.count + 2
        while true {
            let end = try #require(index(of: delimiter, in: body, from: start), "part \(parts.count) has no delimiter after it")
            let part = Array(body[start..<end])
            let blank = try #require(index(of: Array("\r\n\r\n".utf8), in: part, from: 0), "part \(parts.count) has no blank line")
            let headers = String(decoding: part[..<blank], as: UTF8.self).components(separatedBy: "\r\n")
            parts.append(ReceivedPart(headers: headers, content: Array(part[(blank + 4)...])))
            let after = end + delimiter.count
            if body[after...].starts(with: Array("--\r\n".utf8)) {
                #expect(after + 4 == body.count, "bytes after the closing delimiter")
                return parts
            }
            try #require(body[after...].starts(with: Array("\r\n".utf8)), "a delimiter not followed by CRLF")
            start = after + 2
        }
    }

    private static func index(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
