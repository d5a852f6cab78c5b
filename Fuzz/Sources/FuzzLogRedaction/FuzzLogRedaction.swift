import FuzzSupport
import HTTPTypes
import RequestBuilder

/// Feeds request heads with a secret planted where the logging middleware
/// must hide it (a credential header, a token query parameter under any of
/// the spellings it matches, the password in the authority) among random
/// text, to `LoggingMiddleware.Redaction`.
///
/// Invariant: nothing traps, and the redacted head (its path, authority and
/// every field) never holds the planted secret.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogRedaction(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let secret = "PLANTEDsecret7Qk2"
    let spellings = ["token", "TOKEN", "tok%65n", "%74oken", "access_token", "Access%5FToken", "api_key", "X-Amz-Signature", "x-amz-signature"]
    let spelling = spellings[input.choice(spellings.count)]
    // Text around the planted pair; a '#' would start a fragment, which is
    // not the query (and never sent). Filtered by scalar: '#' and a combining
    // mark after it are one Character.
    let before = dropping("#", from: input.string(maximum: 48))
    let after = input.string(maximum: 48)
    let path = "/p?\(before)&\(spelling)=\(secret)&\(after)"
    let user = dropping("@", from: input.string(maximum: 16))
    let host = input.string(maximum: 24)
    let headers: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie, .setCookie]
    var fields = HTTPFields()
    for _ in 0..<input.choice(4) {
        if let name = HTTPField.Name(input.string(maximum: 16)) { fields.append(HTTPField(name: name, value: input.string(maximum: 24))) }
    }
    fields.append(HTTPField(name: headers[input.choice(headers.count)], value: "Bearer \(secret)"))
    let head = HTTPRequest(method: .get, scheme: "https", authority: "\(user):\(secret)@\(host)", path: path, headerFields: fields)

    let redacted = LoggingMiddleware.Redaction.default.redacted(head)
    fuzzCheck(!(redacted.path ?? "").contains(secret), "the path \(redacted.path.debugDescription) shows the secret")
    fuzzCheck(!(redacted.authority ?? "").contains(secret), "the authority \(redacted.authority.debugDescription) shows the secret")
    for field in redacted.headerFields {
        fuzzCheck(!field.value.contains(secret), "\(field.name) shows the secret")
    }
    return 0
}

/// `text` without the scalar `scalar`.
private func dropping(_ scalar: Unicode.Scalar, from text: String) -> String {
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: text.unicodeScalars.filter { $0 != scalar })
    return String(kept)
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzLogRedaction_main")
public func fuzzLogRedactionMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzLogRedaction)
}
