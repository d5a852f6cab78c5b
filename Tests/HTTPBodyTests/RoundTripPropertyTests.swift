import Foundation
import HTTPBody
import PropertyBased
import Testing

/// Random inputs encoded by this package and decoded by parsers that share no
/// code with it: multipart-kit for multipart bodies (plain and gzipped, then
/// inflated with zlib), Foundation's `URLComponents` for form and query text.
/// Each property must hold for every generated case; a failure prints the
/// seed to reproduce it (`.fixedSeed(...)`).
///
/// Cases per run: 800 + 300 + 6 multipart forms, 4,500 form encodings and
/// 4,500 queries (10,106 in all).
@Suite struct RoundTripPropertyTests {
    // MARK: Multipart

    @Test func multipartPartsDecodeExactlyAsTheyWentIn() async {
        await propertyCheck(
            count: 800,
            input: RandomPart.generator(largest: 16 * 1024).array(of: 0...6), PropertyGen.boundary.optional, Gen.int(in: 1...80_000)
        ) { parts, boundary, chunkSize in
            await Task.yield()  // thousands of CPU-bound cases must not starve other tests of the 2-thread pool
            try await Self.expectRoundTrip(parts, boundary: boundary, chunkSize: chunkSize, gzipLevel: nil)
        }
    }

    @Test func gzippedMultipartInflatesAndDecodesExactly() async {
        await propertyCheck(
            count: 300,
            input: RandomPart.generator(largest: 16 * 1024).array(of: 0...4), PropertyGen.boundary.optional, Gen.int(in: 0...9)
        ) { parts, boundary, level in
            await Task.yield()  // thousands of CPU-bound cases must not starve other tests of the 2-thread pool
            try await Self.expectRoundTrip(parts, boundary: boundary, chunkSize: RequestBody.defaultChunkSize, gzipLevel: level)
        }
    }

    /// A few forms with a part of 1-3 MiB, gzipped or not.
    @Test func multipartWithMebibytePartsDecodesExactly() async {
        await propertyCheck(
            count: 6,
            input: RandomPart.generator(largest: 3 * 1024 * 1024).array(of: 1...3), Gen.int(in: 1_000_000...3 * 1024 * 1024), Gen.int(in: 1...9).optional(valueRate: 0.3)
        ) { parts, size, level in
            await Task.yield()  // thousands of CPU-bound cases must not starve other tests of the 2-thread pool
            var parts = parts
            parts[0].kind = .data(size: size, seed: UInt64(size), filename: "big.bin")
            try await Self.expectRoundTrip(parts, boundary: nil, chunkSize: RequestBody.defaultChunkSize, gzipLevel: level)
        }
    }

    /// Encodes `parts`, reads the body in chunks of `chunkSize` (and through
    /// gzip and back when `gzipLevel` is set), and checks multipart-kit sees
    /// each part's headers and bytes exactly. A caller-chosen boundary that
    /// occurs in a part must be rejected instead.
    static func expectRoundTrip(_ parts: [RandomPart], boundary: String?, chunkSize: Int, gzipLevel: Int?) async throws {
        var form = MultipartFormData(boundary: try boundary.map { try MultipartBoundary.constant($0) } ?? .random())
        var expected: [ParsedPart] = []
        for part in parts {
            let content = part.content
            switch part.kind {
            case .text(let text):
                form.append(text, name: part.name)
                expected.append(ParsedPart(headers: ["Content-Disposition: form-data; name=\"\(escaped(part.name))\""], body: content))
            case .data(_, _, let filename):
                form.append(content, name: part.name, filename: filename, contentType: .octetStream)
                let filenameParameter = filename.map { "; filename=\"\(escaped($0))\"" } ?? ""
                expected.append(ParsedPart(
                    headers: ["Content-Disposition: form-data; name=\"\(escaped(part.name))\"\(filenameParameter)", "Content-Type: application/octet-stream"],
                    body: content
                ))
            }
        }
        // A caller-chosen boundary is refused wherever its bytes occur in a
        // part, head included: stricter than RFC 2046 (which forbids only the
        // delimiter) so that lax parsers cannot be confused either.
        let boundaryBytes = Array(form.boundary.value.utf8)
        let holders = zip(parts, expected).filter { part, parsed in
            let head = Array(parsed.headers.joined(separator: "\r\n").utf8)
            return form.boundary.isCallerChosen && (part.content.firstRange(of: boundaryBytes) != nil || head.firstRange(of: boundaryBytes) != nil)
        }
        let body: RequestBody
        do {
            body = try RequestBody.multipart(form)
        } catch {
            #expect(error.code == .boundaryInContent, "\(error)")
            #expect(!holders.isEmpty, "rejected although no part holds the boundary: \(error)")
            return
        }
        #expect(holders.isEmpty, "a part holds the caller's boundary but was accepted")

        var bytes: [UInt8] = []
        for try await chunk in body.chunks(maximumChunkSize: chunkSize) {
            #expect(!chunk.isEmpty && chunk.count <= chunkSize)
            bytes += chunk
        }
        #expect(body.length == Int64(bytes.count), "declared length must match the bytes")
        if let gzipLevel {
            let compressed = try await body.gzipped(level: gzipLevel).collect()
            #expect(try GzipBodyTests.gunzip(compressed) == bytes)
        }
        let parsed = try parseWithMultipartKit(bytes, boundary: form.boundary.value)
        #expect(parsed.count == expected.count)
        for (index, (actual, wanted)) in zip(parsed, expected).enumerated() {
            #expect(actual.headers == wanted.headers, "headers of part \(index)")
            #expect(actual.body == wanted.body, "bytes of part \(index) (\(actual.body.count) vs \(wanted.body.count))")
        }
    }

    /// A name or filename as RFC 7578 and the WHATWG standard write it in a
    /// quoted parameter: `"`, CR and LF percent-encoded, the rest as UTF-8.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: Form and query

    @Test func formPairsDecodeWithURLComponents() async {
        await propertyCheck(
            count: 4500,
            input: zip(PropertyGen.text(), PropertyGen.text()).array(of: 0...8), Gen.bool, Gen.bool
        ) { pairs, plus, sorted in
            await Task.yield()  // thousands of CPU-bound cases must not starve other tests of the 2-thread pool
            let encoder = URLEncodedFormEncoder(keyOrdering: sorted ? .sorted : .given, spaceEncoding: plus ? .plusReplaced : .percentEscaped)
            let encoded = encoder.encode(pairs)
            let body = RequestBody.form(pairs, encoder: encoder)
            let collected = try await body.collect()
            #expect(collected == Array(encoded.utf8))
            let decoded = Self.decodeWithURLComponents(encoded, plusIsSpace: plus)
            let wanted = sorted ? Self.stableSortedByName(pairs) : pairs
            // Byte for byte: `==` on String would accept canonically equivalent text.
            #expect(decoded.map { Array($0.0.utf8) } == wanted.map { Array($0.0.utf8) })
            #expect(decoded.map { Array($0.1.utf8) } == wanted.map { Array($0.1.utf8) })
        }
    }

    @Test func queryKeepsExistingItemsAndDecodesWithURLComponents() async throws {
        let base = try #require(URL(string: "http://example.com/a%20b/c?keep=1&x=%20y#frag"))
        await propertyCheck(count: 4500, input: zip(PropertyGen.text(), PropertyGen.text()).array(of: 0...8)) { pairs in
            await Task.yield()  // thousands of CPU-bound cases must not starve other tests of the 2-thread pool
            let url = base.appendingQuery(pairs)
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            #expect(components.percentEncodedPath == "/a%20b/c")
            #expect(components.fragment == "frag")
            let query = try #require(components.percentEncodedQuery)
            let decoded = Self.decodeWithURLComponents(query, plusIsSpace: false)
            #expect(decoded.map(\.0) == ["keep", "x"] + pairs.map(\.0))
            #expect(decoded.map(\.1) == ["1", " y"] + pairs.map(\.1))
        }
    }

    /// Splits a query or form body with Foundation's `URLComponents`, then
    /// percent-decodes each side; `+` means a space only in the form convention.
    ///
    /// The decoding is done here, byte by byte, because Foundation's
    /// `removingPercentEncoding` drops a leading U+FEFF (byte order mark).
    static func decodeWithURLComponents(_ encoded: String, plusIsSpace: Bool) -> [(String, String)] {
        guard !encoded.isEmpty else { return [] }
        var components = URLComponents()
        components.percentEncodedQuery = encoded
        let items = components.percentEncodedQueryItems ?? []
        return items.map { (percentDecoded($0.name, plusIsSpace: plusIsSpace), percentDecoded($0.value ?? "", plusIsSpace: plusIsSpace)) }
    }

    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "%"), input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Pairs sorted by the UTF-8 bytes of their names, equal names keeping
    /// their order (what `.sorted` promises; not String's `<`, which compares
    /// normalized text: U+F91C sorts as U+5375 there).
    static func stableSortedByName(_ pairs: [(String, String)]) -> [(String, String)] {
        pairs.enumerated().sorted { lhs, rhs in
            let left = Array(lhs.element.0.utf8), right = Array(rhs.element.0.utf8)
            return left == right ? lhs.offset < rhs.offset : left.lexicographicallyPrecedes(right)
        }.map(\.element)
    }
}
