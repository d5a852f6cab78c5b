import Foundation

/// Writes the benchmark inputs: deterministic, so runs compare.
public enum InputGenerator {
    /// Words for generated prose; about the letter mix of English text, so it
    /// deflates about as well as real text does (roughly 3:1 at level 6).
    static let words: [String] = """
        the of and to in is was that for on with as by at from this be are or an it not have \
        which but were had their one all been has more when there also they can into its other \
        time some these would two may after first only new over such most where used between \
        about upload request body multipart boundary stream chunk server client header length \
        content type file data sent bytes network buffer memory encoder decoder compress gzip \
        deflate level window format value field name part number system process thread queue \
        record report measure figure result table column row index offset second minute hour \
        north south river mountain village garden winter summer autumn spring morning evening \
        quickly slowly carefully rarely often always never perhaps certainly although because
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// `count` bytes of prose: lines of random words.
    public static func text(count: Int, generator: inout SeededGenerator) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count + 64)
        let encoded = words.map { Array($0.utf8) }
        var lineLength = 0
        while result.count < count {
            let word = encoded[Int(generator.next() % UInt64(encoded.count))]
            result.append(contentsOf: word)
            lineLength += word.count + 1
            if lineLength > 72 {
                result.append(0x2E)  // "."
                result.append(0x0A)
                lineLength = 0
            } else {
                result.append(0x20)
            }
        }
        return Array(result.prefix(count))
    }

    /// `count` bytes of a JSON array of small records (valid JSON when whole).
    public static func json(count: Int, generator: inout SeededGenerator) -> [UInt8] {
        var result = Array("[\n".utf8)
        var index = 0
        while result.count < count - 200 {
            let word = words[Int(generator.next() % UInt64(words.count))]
            let value = generator.next() % 100_000
            result.append(contentsOf: "  {\"id\": \(index), \"name\": \"\(word) \(index)\", \"score\": \(value), \"ok\": \(value % 2 == 0)},\n".utf8)
            index += 1
        }
        result.append(contentsOf: "  {\"id\": \(index), \"name\": \"last\", \"score\": 0, \"ok\": true}\n]\n".utf8)
        return result
    }

    /// `count` bytes of CSV with a header line.
    public static func csv(count: Int, generator: inout SeededGenerator) -> [UInt8] {
        var result = Array("id,name,score,city\n".utf8)
        var index = 0
        while result.count < count {
            let word = words[Int(generator.next() % UInt64(words.count))]
            let city = words[Int(generator.next() % UInt64(words.count))]
            result.append(contentsOf: "\(index),\(word),\(generator.next() % 100_000),\(city)\n".utf8)
            index += 1
        }
        return result
    }

    /// Writes a file of `size` bytes of prose at `path`, in 16 MiB blocks of
    /// fresh text (deflate's window is 32 KiB, so blocks never repeat within it).
    public static func writeTextFile(at path: String, size: Int, seed: UInt64 = 1) throws {
        var generator = SeededGenerator(seed: seed)
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw WorkloadError("cannot create \(path)") }
        defer { try? handle.close() }
        let blockSize = 16 * 1_048_576
        let block = text(count: min(blockSize, size), generator: &generator)
        var written = 0
        while written < size {
            let count = min(block.count, size - written)
            try handle.write(contentsOf: block.prefix(count))
            written += count
        }
    }

    /// Fills `directory` with a mixed upload of about `totalSize` bytes: half
    /// already-compressed files (JPEG, PNG, zip and gzip headers on random
    /// bytes), half text, JSON and CSV; returns the paths in a stable order.
    public static func writeMixedUpload(in directory: String, totalSize: Int, fileSize: Int = 4 * 1_048_576) throws -> [String] {
        var generator = SeededGenerator(seed: 2)
        let pairs = max(1, totalSize / (2 * fileSize))
        var paths: [String] = []
        for index in 0..<pairs {
            let (compressedName, header) = compressedHeaders[index % compressedHeaders.count]
            let compressed = header + generator.bytes(fileSize - header.count)
            let textName: String
            let textual: [UInt8]
            switch index % 3 {
            case 0: (textName, textual) = ("notes-\(index).txt", text(count: fileSize, generator: &generator))
            case 1: (textName, textual) = ("records-\(index).json", json(count: fileSize, generator: &generator))
            default: (textName, textual) = ("table-\(index).csv", csv(count: fileSize, generator: &generator))
            }
            for (name, bytes) in [("\(index)-\(compressedName)", compressed), (textName, textual)] {
                let path = directory + "/" + name
                guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                    throw WorkloadError("cannot create \(path)")
                }
                paths.append(path)
            }
        }
        return paths
    }

    /// Leading bytes of already-compressed formats, as the signature table knows them.
    static let compressedHeaders: [(String, [UInt8])] = [
        ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
        ("image.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x02, 0x00, 0x00, 0x00]),
        // A whole local file header (version, method, time, CRC, sizes, name), as libmagic checks it.
        ("archive.zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x21, 0x60, 0x56, 0x5B, 0x12, 0x34, 0x56, 0x78]
            + [0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00] + Array("data.bin".utf8)),
        ("logs.gz", [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]),
    ]
}
