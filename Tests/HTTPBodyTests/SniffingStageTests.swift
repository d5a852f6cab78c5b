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

    /// Text without a text extension is named from its first line, with the
    /// name libmagic gives the same bytes (checked against libmagic itself),
    /// and libmagic is not asked: its rules for text cost 0.5-2.5 ms a file.
    @Test(arguments: [
        ("configure", "#!/bin/sh\necho hi\n", "text/x-shellscript"),
        ("build", "#!/bin/bash -e\nmake\n", "text/x-shellscript"),
        ("tool", "#!/usr/bin/env python3\nprint(1)\n", "text/x-script.python"),
        ("tool311", "#!/usr/bin/python3.11\nprint(1)\n", "text/x-script.python"),
        ("report", "#!/usr/bin/perl -w\nprint 1;\n", "text/x-perl"),
        ("serve", "#!/usr/bin/env node\nconsole.log(1)\n", "application/javascript"),
        ("rakefile", "#!/usr/bin/env ruby\nputs 1\n", "text/x-ruby"),
        ("pom", "<?xml version=\"1.0\"?>\n<project/>\n", "text/xml"),
        ("drawing", "<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", "image/svg+xml"),
        ("index", "<!DOCTYPE html>\n<p>hi</p>\n", "text/html"),
        ("fragment", "  <html><body>hi</body></html>\n", "text/html"),
        ("foo.1", ".TH FOO 1\n.SH NAME\nfoo\n", "text/troff"),
        ("manual", ".\\\" comment\n.TH FOO 1\n", "text/troff"),
        ("letter", "{\\rtf1\\ansi hi}\n", "text/rtf"),
        ("base", "{\"a\": [1, 2]}\n", "application/json"),
        ("RECORD", "a.py,sha256=x,10\nb.py,sha256=y,20\nc.py,,\n", "text/csv"),
        ("two-lines", "Hello, world\nBye, now\n", "text/plain"),
        ("LICENSE", "Permission is hereby granted, free of charge.\n", "text/plain"),
    ])
    func textIsNamedByItsFirstLineAsLibmagicNamesIt(filename: String, text: String, expected: String) {
        let result = answer(Array(text.utf8), filename)
        #expect(result == .init(MediaType(expected), .textClassification))
        #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: Array(text.utf8)))?.essence == expected)
    }

    @Test func jsonThatDoesNotParseIsNotNamedJSONByItsExtension() {
        #expect(answer(Array("{\"a\": \n".utf8), "broken.json") == .init(MediaType(type: "text", subtype: "plain"), .textClassification))
    }

    @Test func libmagicAnswersWhatNothingCheaperCan() {
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + Array(repeating: 0, count: 8) + [2, 0, 0x3E, 0, 1, 0, 0, 0] + Array(repeating: 0, count: 40)
        #expect(answer(elf).stage == .libmagic)
        #expect(answer([], "empty.json") == .init(MediaType(type: "application", subtype: "json"), .fileExtension))
        #expect(answer([], "empty") == .init(nil, .fileExtension))
    }
}
