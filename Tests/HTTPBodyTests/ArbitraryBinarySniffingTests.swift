import Foundation
import HTTPBody
import Testing

/// Content that is no format at all stays `application/octet-stream`:
/// libmagic's weakest rules (TGA, DOS `.com`, AAC) match about one file of
/// random bytes in 60, and the type they give reaches servers (issue #29).
@Suite struct ArbitraryBinarySniffingTests {
    /// A fixed pseudo-random sequence (SplitMix64), so a failure names the same bytes on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func sniff(_ bytes: [UInt8], _ filename: String? = nil) -> String? {
        StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: bytes, filename: filename))?.essence
    }

    @Test func allByteValuesInOrderAreOctetStream() throws {
        let once = (0...255).map { UInt8($0) }
        // libmagic alone calls this a TGA image.
        #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: once))?.essence == "image/x-tga")
        #expect(sniff(once) == "application/octet-stream")
        #expect(sniff(once, "values.bin") == "application/octet-stream")
        #expect(sniff(Array(repeating: once, count: 32).flatMap { $0 }) == "application/octet-stream")

        // As a file body, the type a multipart part or an S3 object gets.
        let directory = FileManager.default.temporaryDirectory.appending(path: "binary-sniffing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "all-bytes")
        try Data(once).write(to: url)
        #expect(try RequestBody.file(at: url).contentType?.essence == "application/octet-stream")
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: url)?.essence == "application/octet-stream")
    }

    @Test func randomBytesAreOctetStream() {
        var generator = SplitMix(state: 29)
        var libmagicNamed: [String: Int] = [:]
        for index in 0..<1000 {
            let count = Int.random(in: 64...1024, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let alone = LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: bytes))?.essence ?? "none"
            if alone != "application/octet-stream" { libmagicNamed[alone, default: 0] += 1 }
            #expect(sniff(bytes, "noise-\(index)") == "application/octet-stream", "sample \(index), \(alone) to libmagic: \(bytes.prefix(16))")
        }
        // The samples include some that libmagic alone takes for a format
        // (a DOS .com program, zlib, an audio stream): the case this covers.
        #expect(!libmagicNamed.isEmpty, "\(libmagicNamed)")
    }

    @Test func randomBytesAfterBMAreNoBitmap() {
        // WHATWG's BMP pattern is the two bytes "BM": random bytes start with
        // them once in 65,536 files (as one of 4,000 random files did).
        var generator = SplitMix(state: 11)
        let noise = Array("BM".utf8) + (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(sniff(noise) == "application/octet-stream")
        #expect(sniff(noise, "noise.bin") == "application/octet-stream")
        // A real header: size, reserved zeros, pixel offset 54, a 40-byte BITMAPINFOHEADER.
        let bitmap: [UInt8] = [0x42, 0x4D, 0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0x18, 0] + Array(repeating: 0, count: 28)
        #expect(sniff(bitmap) == "image/bmp")
        #expect(SignatureMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: bitmap))?.essence == "image/bmp")
    }

    @Test func weakTypeStandsWhenTheExtensionSaysTheSame() {
        let once = (0...255).map { UInt8($0) }
        #expect(sniff(once, "picture.tga") == "image/x-tga")
        var generator = SplitMix(state: 7)
        // An MZ header is a real signature: believed whatever the name.
        let mz: [UInt8] = Array("MZ".utf8) + [0x90, 0x00, 0x03] + Array(repeating: 0, count: 59) + (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(sniff(mz, "setup") == LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: mz))?.essence)
    }
}
