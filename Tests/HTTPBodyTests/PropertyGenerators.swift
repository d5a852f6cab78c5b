import Foundation
import HTTPBody
import PropertyBased

/// Generators for the property tests: text that stresses encoders (ASCII
/// punctuation and controls, Latin-1, the rest of the BMP, astral scalars),
/// binary contents, and valid multipart boundaries.
enum PropertyGen {
    /// Unicode scalars from every plane, surrogates excluded (they are not scalars).
    static let scalar = Gen<UnicodeScalar>.oneOf(
        Gen.unicodeScalar(in: "\u{20}"..."\u{7E}"),
        Gen.unicodeScalar(in: "\u{20}"..."\u{7E}"),
        Gen.element(of: Array("&=+%;#?/\\\"' \t\r\n".unicodeScalars)).compactMap { $0 },
        Gen.unicodeScalar(in: "\u{0}"..."\u{1F}"),
        Gen.unicodeScalar(in: "\u{A0}"..."\u{FF}"),
        Gen.unicodeScalar(in: "\u{100}"..."\u{D7FF}"),
        Gen.unicodeScalar(in: "\u{E000}"..."\u{FFFD}"),
        Gen.unicodeScalar(in: "\u{10000}"..."\u{10FFFF}")
    )

    /// Any text, controls included, of 0 to `length` scalars.
    static func text(of length: ClosedRange<Int> = 0...24) -> Generator<String, some SendableSequenceType> {
        scalar.array(of: length).map { scalars in
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            return text
        }
    }

    /// Text without the controls a Content-Disposition cannot carry (CR and
    /// LF stay: they are escaped as `%0D` and `%0A`).
    static func partName(of length: ClosedRange<Int> = 1...24) -> Generator<String, some SendableSequenceType> {
        text(of: length).map { name in
            String(String.UnicodeScalarView(name.unicodeScalars.filter { scalar in
                !(scalar.value < 0x20 && scalar != "\t" && scalar != "\r" && scalar != "\n") && scalar.value != 0x7F
            }))
        }
    }

    /// A valid boundary (RFC 2046 `bchars`, 1-70 of them, not ending in a space).
    static let boundary = Gen.element(of: Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8))
        .compactMap { $0 }
        .array(of: 1...70)
        .map { bytes -> String in
            var bytes = bytes
            if bytes.last == UInt8(ascii: " ") { bytes[bytes.count - 1] = UInt8(ascii: "x") }
            return String(decoding: bytes, as: UTF8.self)
        }

    /// Sizes skewed small: mostly under 1 KiB, some up to 16 KiB, a few up to `largest`.
    static func size(largest: Int = 64 * 1024) -> Generator<Int, some SendableSequenceType> {
        Gen<Int>.frequency(
            (weight: 12, gen: Gen.int(in: 0...1024)),
            (weight: 3, gen: Gen.int(in: 0...(16 * 1024))),
            (weight: 1, gen: Gen.int(in: 0...largest))
        )
    }

    /// `count` pseudo-random bytes from `seed`, quickly (SplitMix64, 8 bytes a step).
    static func bytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = 0
            while index < count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                mixed ^= mixed >> 31
                for shift in stride(from: 0, to: 64, by: 8) where index < count {
                    buffer[index] = UInt8(truncatingIfNeeded: mixed >> UInt64(shift))
                    index += 1
                }
            }
            initialized = count
        }
    }
}

/// One random part of a multipart form.
struct RandomPart: CustomStringConvertible, Sendable {
    enum Kind: Sendable { case text(String), data(size: Int, seed: UInt64, filename: String?) }
    var name: String
    var kind: Kind

    var description: String {
        switch kind {
        case .text(let text): "text \(name.debugDescription)=\(text.debugDescription)"
        case .data(let size, let seed, let filename): "data \(name.debugDescription) filename \(filename.debugDescription) \(size) bytes (seed \(seed))"
        }
    }

    /// The content bytes the part should arrive with.
    var content: [UInt8] {
        switch kind {
        case .text(let text): Array(text.utf8)
        case .data(let size, let seed, _): PropertyGen.bytes(count: size, seed: seed)
        }
    }

    static func generator(largest: Int) -> Generator<RandomPart, some SendableSequenceType> {
        let text = zip(PropertyGen.partName(), PropertyGen.text(of: 0...64)).map { name, text in
            RandomPart(name: name, kind: .text(text))
        }
        let data = zip(PropertyGen.partName(), PropertyGen.size(largest: largest), Gen<UInt64>.value(), PropertyGen.partName(of: 0...24).optional)
            .map { name, size, seed, filename in
                RandomPart(name: name, kind: .data(size: size, seed: seed, filename: filename))
            }
        return Gen<RandomPart>.oneOf(text, data)
    }
}
