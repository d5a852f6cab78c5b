import Foundation
import FuzzSupport
import HTTPTypes
@testable import ObjectStorage
import RequestBuilder

/// Feeds raw bytes, as a hostile or broken S3-compatible store would answer,
/// to `S3XMLReader` and to the reading of a `ListPartsResult`.
///
/// Invariants: nothing traps; a document that parses writes back (text
/// escaped, children after the text) to one that parses to the same
/// element; a part list read from it has part numbers in 1...10000 and no
/// negative size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzS3XML(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    guard let element = try? S3XMLReader.parse(bytes) else { return 0 }
    var written: [UInt8] = []
    write(element, to: &written)
    let again: S3XMLElement
    do {
        again = try S3XMLReader.parse(written)
    } catch {
        fuzzCheck(false, "\(String(decoding: written, as: UTF8.self).debugDescription) does not parse back: \(error)")
        return 0
    }
    fuzzCheck(again == element, "written back as \(String(decoding: written, as: UTF8.self).debugDescription), it reads as \(again), not \(element)")

    let response = Response(head: HTTPResponse(status: .ok), body: Data(bytes))
    for algorithm in [S3ChecksumAlgorithm.crc32, .sha256] {
        guard let location = try? S3Location(bucket: "bucket", key: "key"),
              let list = try? S3MultipartUpload.readPartList(response, algorithm: algorithm, location: location)
        else { continue }
        for part in list.parts {
            fuzzCheck((1...10_000).contains(part.number) && part.size >= 0, "part \(part.number) of \(part.size) bytes")
        }
    }
    return 0
}

/// `element` as XML: its name, its text with `&` and `<` escaped, then its children.
private func write(_ element: S3XMLElement, to output: inout [UInt8]) {
    output += Array("<\(element.name)>".utf8)
    for byte in element.text.utf8 {
        switch byte {
        case UInt8(ascii: "&"): output += Array("&amp;".utf8)
        case UInt8(ascii: "<"): output += Array("&lt;".utf8)
        default: output.append(byte)
        }
    }
    for child in element.children { write(child, to: &output) }
    output += Array("</\(element.name)>".utf8)
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzS3XML_main")
public func fuzzS3XMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzS3XML)
}
