import Foundation

extension InputGenerator {
    /// Writes `count` small files of fifteen kinds (text, JSON, CSV, HTML, XML,
    /// scripts, Markdown, images, archives, PDF, random bytes), 200 B to 4 KiB
    /// each, and returns their paths in a stable order.
    public static func writeSniffingSet(in directory: String, count: Int) throws -> [String] {
        var generator = SeededGenerator(seed: 3)
        var paths: [String] = []
        paths.reserveCapacity(count)
        for index in 0..<count {
            let size = 200 + Int(generator.next() % 3900)
            let (name, bytes) = sniffingSample(kind: index % 15, index: index, size: size, generator: &generator)
            let path = directory + "/" + name
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw WorkloadError("cannot create \(path)")
            }
            paths.append(path)
        }
        return paths
    }

    private static func sniffingSample(kind: Int, index: Int, size: Int, generator: inout SeededGenerator) -> (String, [UInt8]) {
        func prose(_ count: Int) -> [UInt8] { text(count: count, generator: &generator) }
        switch kind {
        case 0: return ("note-\(index).txt", prose(size))
        case 1: return ("data-\(index).json", json(count: max(size, 300), generator: &generator))
        case 2: return ("table-\(index).csv", csv(count: size, generator: &generator))
        case 3:
            let body = "<!DOCTYPE html>\n<html>\n<head><title>Page \(index)</title></head>\n<body>\n<p>"
            return ("page-\(index).html", Array(body.utf8) + prose(size) + Array("</p>\n</body>\n</html>\n".utf8))
        case 4:
            let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records>\n  <record id=\"\(index)\">"
            return ("feed-\(index).xml", Array(head.utf8) + prose(size) + Array("</record>\n</records>\n".utf8))
        case 5:
            let script = "#!/bin/sh\nset -e\necho \"run \(index)\"\n# "
            return ("run-\(index).sh", Array(script.utf8) + prose(size) + [0x0A])
        case 6: return ("image-\(index).png", compressedHeaders[1].1 + generator.bytes(size))
        case 7: return ("photo-\(index).jpg", compressedHeaders[0].1 + generator.bytes(size))
        case 8: return ("anim-\(index).gif", Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0xF7, 0x00, 0x00] + generator.bytes(size))
        case 9: return ("logs-\(index).gz", compressedHeaders[3].1 + generator.bytes(size))
        case 10: return ("bundle-\(index).zip", compressedHeaders[2].1 + generator.bytes(size))
        case 11:
            let pdf = "%PDF-1.4\n%\u{E2}\u{E3}\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
            return ("report-\(index).pdf", Array(pdf.utf8) + prose(size))
        case 12: return ("blob-\(index).bin", generator.bytes(size))
        case 13: return ("readme-\(index).md", Array("# Notes \(index)\n\n".utf8) + prose(size))
        default:
            let script = "#!/usr/bin/env python3\nimport os\nimport sys\n\n\ndef main():\n    print(\"\(index)\")\n\n# "
            return ("tool-\(index).py", Array(script.utf8) + prose(size) + [0x0A])
        }
    }
}
