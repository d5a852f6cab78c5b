import HTTPBody
import SystemPackage
import UploaderItems

/// Reads the files that HTTPie-style items take their values from
/// (`name=@path`, `name:=@path`, `Header:@path`, `name==@path`, curl's
/// `-F 'name=<path'`) and puts
/// the plain item in each one's place, before anything is built.
///
/// Each file is read once, however many items name it. A file must be a
/// regular file (opened without blocking and checked with `fstat`, as file
/// parts are); a missing or unusable one is bad input naming the item.
struct ItemFiles {
    /// The contents read so far, by the path as typed.
    private var contents: [String: [UInt8]] = [:]

    /// The plain item for `item`; items that read no file come back as they are.
    mutating func resolve(_ item: RequestItem, typed text: String) throws(InputError) -> RequestItem {
        guard case .fromFile(let kind, let name, let path) = item else { return item }
        let bytes = try read(path, item: text)
        switch kind {
        case .field:
            // As it is: bytes that are not UTF-8 travel as the command
            // line's do (RawArgument), sent exactly where bytes can go.
            return .field(name: name, value: RawArgument.decode(bytes))
        case .formText(let type):
            let value = RawArgument.decode(bytes)
            return type.map { .textPart(name: name, value: value, type: $0, filename: nil) } ?? .field(name: name, value: value)
        case .rawJSON:
            guard let json = String(validating: bytes, as: UTF8.self) else {
                throw InputError(.malformedItem, "'\(text.echoed)': the file is not UTF-8 text, which JSON must be (RFC 8259, section 8.1)")
            }
            do {
                _ = try RawJSON(validating: json)
            } catch {
                throw InputError(.malformedItem, "'\(text.echoed)': \(error.description)")
            }
            return .rawJSON(name: name, json: json)
        case .header, .query:
            // Trimmed as HTTPie trims a header value: the newline an editor
            // leaves at the end of a token file is not part of the token.
            let value = RawArgument.decode(bytes).trimmingWhitespace
            if kind == .query { return .query(name: name, value: value) }
            guard !value.isEmpty else {
                throw InputError(.malformedItem, "'\(text.echoed)': the file holds no value (only whitespace, or nothing); a header item with an empty value would remove the header")
            }
            return .header(name: name, value: value)
        }
    }

    /// The whole file at `path`, read once.
    private mutating func read(_ path: String, item: String) throws(InputError) -> [UInt8] {
        if let known = contents[path] { return known }
        var bytes: [UInt8] = []
        do throws(RequestBodyError) {
            let reader = try FileReader(measuring: FileLocation(FilePath(argument: path)))
            bytes.reserveCapacity(Int(reader.expectedLength))
            let chunkSize = 64 * 1024
            while let chunk = try reader.readChunk(maximumLength: chunkSize, as: [UInt8].self) {
                bytes.append(contentsOf: chunk)
            }
        } catch {
            throw InputError(.unusableFile, "'\(item.echoed)': \(error.description)")
        }
        contents[path] = bytes
        return bytes
    }
}
