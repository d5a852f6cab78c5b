import Foundation
import FuzzSupport
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
@testable import ResumableUploads

/// Feeds the JSON of a saved upload state, as a later run reads it back
/// from disk (stale, truncated, or written by another version), to the
/// libraries' decoders: `ResumableUploadState` (tus and the IETF draft) and
/// `S3MultipartUpload.State`.
///
/// Invariants: nothing traps; a state that decodes encodes to one that
/// decodes equal; resuming from it either fails or asks an absolute http(s)
/// URL with a host; comparing its body with the current one never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResumeState(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let body = RequestBody.bytes(Array("resumable body".utf8))
    if let state = try? JSONDecoder().decode(ResumableUploadState.self, from: data) {
        checkRoundTrip(state)
        guard let request = try? HTTPRequestBuilder(.post, "http://127.0.0.1:8080/files").body(body).build(),
              let upload = try? ResumableUpload(request)
        else {
            fuzzCheck(false, "the uploads to resume do not build")
            return 0
        }
        if let first = try? upload.firstRequest(resumingFrom: state) {
            checkTarget(first, of: state.uploadURL)
        }
        if let current = try? BodyIdentity(of: body) {
            _ = state.body.difference(from: current)
            _ = current.difference(from: state.body)
        }
        _ = state.body.boundary
    }
    if let state = try? JSONDecoder().decode(S3MultipartUpload.State.self, from: data) {
        checkRoundTrip(state)
    }
    return 0
}

/// A value encoded and decoded again is equal to itself.
private func checkRoundTrip<State: Codable & Equatable>(_ state: State) {
    do {
        let encoded = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(State.self, from: encoded)
        fuzzCheck(decoded == state, "\(state) reads back as \(decoded)")
    } catch {
        fuzzCheck(false, "\(state) does not round-trip: \(error)")
    }
}

/// A request that resumes goes to an http(s) URL with a host.
private func checkTarget(_ request: PreparedRequest, of url: URL) {
    let scheme = request.head.scheme ?? ""
    fuzzCheck((scheme == "http" || scheme == "https") && !(request.head.authority ?? "").isEmpty, "resuming \(url) asks \(request.head)")
    fuzzCheck(request.head.path?.hasPrefix("/") == true || request.head.path == "*", "resuming \(url) asks the path \(request.head.path.debugDescription)")
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzResumeState_main")
public func fuzzResumeStateMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzResumeState)
}
