import Foundation
import FuzzSupport
import HTTPBody
import ObjectStorage

/// Feeds a presigned-POST JSON file, as `--presigned-post` reads it from
/// disk, to `PresignedPost(json:)`.
///
/// Invariants: nothing traps; an accepted form has an absolute http(s) URL
/// with a host, `key` as its first field and no field name twice, and the
/// multipart form built from it holds every field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPresignedPost(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    guard let post = try? PresignedPost(json: data) else { return 0 }
    let scheme = post.url.scheme?.lowercased()
    fuzzCheck((scheme == "http" || scheme == "https") && post.url.host?.isEmpty == false, "accepted the url \(post.url.absoluteString.debugDescription)")
    fuzzCheck(post.fields.first?.name == "key", "fields begin with \(post.fields.first?.name.debugDescription ?? "nothing")")
    fuzzCheck(Set(post.fields.map(\.name)).count == post.fields.count, "a field name twice in \(post.fields.map(\.name))")
    guard let boundary = try? MultipartBoundary.constant("fuzz-boundary") else { return 0 }
    let form = post.multipartForm(boundary: boundary)
    fuzzCheck(form.count == post.fields.count, "\(form.count) parts for \(post.fields.count) fields")
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzPresignedPost_main")
public func fuzzPresignedPostMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzPresignedPost)
}
