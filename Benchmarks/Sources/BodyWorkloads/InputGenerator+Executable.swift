import Foundation

extension InputGenerator {
    /// Writes a file of `size` bytes whose type only libmagic can tell: an
    /// ELF header (x86-64 executable) on random bytes, at a path that should
    /// carry no extension, so neither the signature table nor the extension
    /// table names it and the standard sniffer has to load libmagic's database.
    ///
    /// The random bytes are one 16 MiB block written over and over: they only
    /// need to defeat compression and content tests, not be unique.
    public static func writeExecutableFile(at path: String, size: Int, seed: UInt64 = 4) throws {
        var generator = SeededGenerator(seed: seed)
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw WorkloadError("cannot create \(path)") }
        defer { try? handle.close() }
        var block = generator.bytes(min(16 * 1_048_576, size))
        block.replaceSubrange(0..<min(elfHeader.count, block.count), with: elfHeader.prefix(block.count))
        var written = 0
        while written < size {
            let count = min(block.count, size - written)
            try handle.write(contentsOf: block.prefix(count))
            written += count
            if written == count, block.count >= elfHeader.count {
                // Only the file's first block starts with the header.
                block.replaceSubrange(0..<elfHeader.count, with: generator.bytes(elfHeader.count))
            }
        }
    }

    /// The 64-byte header of an ELF64 little-endian x86-64 executable
    /// (`e_type` 2), no program or section headers: `file` names it
    /// `application/x-executable`.
    static let elfHeader: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00]
        + [UInt8](repeating: 0, count: 8)
        + [0x02, 0x00, 0x3E, 0x00, 0x01, 0x00, 0x00, 0x00]  // e_type, e_machine, e_version
        + [0x00, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00]  // e_entry
        + [UInt8](repeating: 0, count: 16)  // e_phoff, e_shoff
        + [0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x38, 0x00]  // e_flags, e_ehsize, e_phentsize
        + [0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00]  // e_phnum, e_shentsize, e_shnum, e_shstrndx
}
