import Foundation
import FuzzSupport
import HTTPBody
import HTTPTypes
@testable import RequestBuilder

/// Feeds a redirect's `Location` (and its status) to the one place every
/// transport derives the next hop, `PreparedRequest.redirected(by:)`,
/// from a request that carries credentials.
///
/// Invariants: nothing traps; a followed redirect goes to an absolute http
/// or https URL with a host, carries no user, password or fragment, has a
/// path that begins with `/`, and keeps `Authorization` and `Cookie` only
/// on the same origin (scheme, host and port).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedirectLocation(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let statuses = [301, 302, 303, 307, 308, 300, 304]
    let status = statuses[input.choice(statuses.count)]
    let bases = ["http://example.com/a/b?c=d", "https://example.com:8443/x/", "http://[::1]:8080/", "http://127.0.0.1/up"]
    let base = bases[input.choice(bases.count)]
    let method: HTTPRequest.Method = input.byte() < 128 ? .get : .post
    var fields = HTTPFields()
    // A second Location now and then: two that disagree are refused.
    let second = input.byte() > 240 ? input.string(maximum: 64) : nil
    fields.append(HTTPField(name: .location, value: input.rest()))
    if let second { fields.append(HTTPField(name: .location, value: second)) }
    let response = HTTPResponse(status: .init(code: status), headerFields: fields)

    guard let request = try? HTTPRequestBuilder(method, base)
        .header(.authorization, "Bearer planted-secret")
        .header(.cookie, "session=planted-secret")
        .body(.bytes(Array("body".utf8)))
        .build()
    else {
        fuzzCheck(false, "the base request \(base) does not build")
        return 0
    }
    let next: PreparedRequest?
    do {
        next = try request.redirected(by: response)
    } catch {
        return 0
    }
    guard let next else {
        fuzzCheck([300, 304].contains(status), "\(status) was not followed and gave no error")
        return 0
    }
    guard let url = next.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
        fuzzCheck(false, "followed to a request with no URL: \(next.head)")
        return 0
    }
    let scheme = next.head.scheme ?? ""
    fuzzCheck(scheme == "http" || scheme == "https", "followed to the scheme \(scheme.debugDescription)")
    fuzzCheck(!(next.head.authority ?? "").isEmpty && components.host?.isEmpty == false, "followed to no host: \(url)")
    fuzzCheck(components.user == nil && components.password == nil && components.fragment == nil, "followed to \(url), with credentials or a fragment")
    fuzzCheck(next.head.path?.hasPrefix("/") == true, "followed to the path \(next.head.path.debugDescription)")
    if let origin = request.url, HTTPOrigin(origin) != HTTPOrigin(url) {
        fuzzCheck(next.head.headerFields[.authorization] == nil && next.head.headerFields[.cookie] == nil, "credentials sent on from \(origin) to \(url)")
    }
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzRedirectLocation_main")
public func fuzzRedirectLocationMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzRedirectLocation)
}
