import Foundation
import FuzzSupport
import HTTPBody
import HTTPTypes
import RequestBuilder
@testable import ResumableUploads

/// Feeds the header values a resumable-upload server answers with to the
/// readers of both protocols: `Upload-Offset` and `Upload-Length` (tus's
/// `HEAD`, the draft's), tus's `OPTIONS` fields (`Tus-Version`,
/// `Tus-Extension`, `Tus-Max-Size`, `Tus-Checksum-Algorithm`) and the
/// checksum algorithm chosen from them; and tus metadata pairs to the
/// `Upload-Metadata` writer.
///
/// Invariants: nothing traps; an offset read is never negative nor past the
/// body's length, and a confirmed one is exactly the end of what was sent;
/// a maximum size read is never negative;
/// the tus reader refuses an `Upload-Length` that is not the body's; a
/// chosen checksum algorithm is one the server listed; `Upload-Metadata`
/// splits back into the keys and values given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumableHeaders(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let length = Int64(input.byte()) << 8 | Int64(input.byte())
    let sent = Int64(input.choice(Int(length) + 1))
    let names: [HTTPField.Name] = [.uploadOffset, .uploadLength, .tusVersion, .tusExtension, .tusMaxSize, .tusChecksumAlgorithm]
    var fields = HTTPFields()
    for _ in 0..<input.choice(8) {
        fields.append(HTTPField(name: names[input.choice(names.count)], value: input.string(maximum: 40)))
    }
    let head = HTTPResponse(status: .noContent, headerFields: fields)

    if let offset = try? UploadOffset.read(from: head, length: length) {
        fuzzCheck(offset >= 0 && offset <= length, "Upload-Offset \(offset) for a \(length)-byte body")
    }
    if let offset = try? UploadOffset.confirmed(by: head, start: 0, end: sent, length: length) {
        fuzzCheck(offset == sent, "confirmed \(offset) after sending \(sent)")
    }
    if let base = try? HTTPRequestBuilder(.post, "http://127.0.0.1/files").build() {
        let body = RequestBody.bytes(Array(repeating: 0, count: Int(length)))
        let response = Response(head: head)
        let tus = TusDialect(base: base, body: body, checksum: nil)
        if let offset = try? tus.offset(in: response, length: length) {
            fuzzCheck(offset >= 0 && offset <= length, "tus offset \(offset) for a \(length)-byte body")
            if let serverLength = head.headerFields[.uploadLength] {
                fuzzCheck(Int64(serverLength) == length, "tus accepted Upload-Length \(serverLength.debugDescription) for a \(length)-byte body")
            }
        }
        let draft = DraftDialect(request: base, version: .v6)
        if let offset = try? draft.offset(in: response, length: length) {
            fuzzCheck(offset >= 0 && offset <= length, "draft offset \(offset) for a \(length)-byte body")
        }
    }
    if let options = try? TusServerOptions(head) {
        if let maximum = options.maximumSize {
            fuzzCheck(maximum >= 0, "Tus-Max-Size read as \(maximum)")
        }
        if let checksum = TusChecksum(advertised: options.checksumAlgorithms) {
            fuzzCheck(options.checksumAlgorithms.contains(checksum.algorithm.rawValue), "chose \(checksum.algorithm) from \(options.checksumAlgorithms)")
        }
    } else {
        fuzzCheck(head.headerFields[.tusMaxSize] != nil, "OPTIONS fields refused with no Tus-Max-Size")
    }

    var pairs: [(key: String, value: String)] = []
    for _ in 0..<input.choice(4) {
        pairs.append((input.string(maximum: 12), input.string(maximum: 24)))
    }
    if let metadata = try? TusMetadata.fieldValue(pairs) {
        let decoded = metadata.isEmpty ? [] : metadata.split(separator: ",", omittingEmptySubsequences: false).map { item -> (String, String) in
            let parts = item.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count == 2 ? Data(base64Encoded: String(parts[1])).map { String(decoding: $0, as: UTF8.self) } : ""
            return (String(parts[0]), value ?? "\u{0}not base64")
        }
        fuzzCheck(decoded.map(\.0) == pairs.map(\.key) && decoded.map(\.1) == pairs.map(\.value), "Upload-Metadata \(metadata.debugDescription) for \(pairs)")
    }
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzResumableHeaders_main")
public func fuzzResumableHeadersMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzResumableHeaders)
}
