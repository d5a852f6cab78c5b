import Foundation
import HTTPBody
import Testing

/// Which stage of the standard sniffer names a file, and that the common
/// files of a real tree are named before libmagic (issue #29): each libmagic
/// call costs about a hundred times what the other stages do.
@Suite struct SniffingStageTests {
    func answer(_ bytes: [UInt8], _ filename: String? = nil) -> StandardMediaTypeSniffer.Answer {
        StandardMediaTypeSniffer().answer(for: MediaTypeSample(prefix: bytes, filename: filename))
    }

    @Test func signaturesNamePNGGettextCataloguesAndPythonBytecode() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        #expect(answer(png) == .init(MediaType(type: "image", subtype: "png"), .signature))
        // A little-endian and a big-endian .mo header: magic, revision 0, 2 strings.
        let catalogue: [UInt8] = [0xDE, 0x12, 0x04, 0x95, 0, 0, 0, 0, 2, 0, 0, 0, 0x1C, 0, 0, 0] + Array(repeating: 0, count: 48)
        let bigEndian: [UInt8] = [0x95, 0x04, 0x12, 0xDE, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0x1C] + Array(repeating: 0, count: 48)
        for header in [catalogue, bigEndian] {
            #expect(answer(header, "messages.mo") == .init(MediaType(type: "application", subtype: "x-gettext-translation"), .signature))
            #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: header))?.essence == "application/x-gettext-translation")
        }
        // CPython 3.11's header (magic 3495, \r\n, flags, date, size), then marshalled code.
        let bytecode: [UInt8] = [0xA7, 0x0D, 0x0D, 0x0A, 0, 0, 0, 0, 0xDA, 0xE0, 0x0D, 0x6A, 0xBC, 0x4A, 0, 0, 0xE3] + Array(repeating: 0, count: 40)
        #expect(answer(bytecode, "module.cpython-311.pyc") == .init(MediaType(type: "application", subtype: "x-bytecode.python"), .signature))
        #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: bytecode))?.essence == "application/x-bytecode.python")
    }

    @Test(arguments: [
        ("main.c", "#include <stdio.h>\nint main(void) { return 0; }\n", "text/x-c"),
        ("util.h", "#ifndef UTIL_H\n#define UTIL_H\nint f(int);\n#endif\n", "text/x-c"),
        ("Module.pm", "package Module;\nuse strict;\n1;\n", "text/x-perl"),
        ("alsa.conf", "pcm.!default {\n  type hw\n}\n", "text/plain"),
        ("keymap.vim", "\" comment\nlet b:keymap_name = \"de\"\n", "text/plain"),
        ("notes.txt", "int main(void) { return 0; }\n", "text/plain"),
        ("icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", "image/svg+xml"),
    ])
    func textIsNamedByItsExtensionWithoutLibmagic(filename: String, text: String, expected: String) {
        let result = answer(Array(text.utf8), filename)
        #expect(result.mediaType?.essence == expected)
        #expect(result.stage == .textClassification)
    }

    @Test func libmagicAnswersWhatNothingCheaperCan() {
        let script = answer(Array("#!/bin/sh\necho hi\n".utf8), "configure")
        #expect(script == .init(MediaType(type: "text", subtype: "x-shellscript"), .libmagic))
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + Array(repeating: 0, count: 8) + [2, 0, 0x3E, 0, 1, 0, 0, 0] + Array(repeating: 0, count: 40)
        #expect(answer(elf).stage == .libmagic)
        #expect(answer([], "empty.json") == .init(MediaType(type: "application", subtype: "json"), .fileExtension))
        #expect(answer([], "empty") == .init(nil, .fileExtension))
    }
}
