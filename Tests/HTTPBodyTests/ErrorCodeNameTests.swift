import HTTPBody
import Testing

/// Every error code prints as the static member it is (`tooLarge`), as
/// messages and callers' logs show it, and codes compare by that member
/// alone. Each `Code` spells its name once more as text, so this table is
/// what catches a name that drifted from its member.
@Suite struct ErrorCodeNameTests {
    @Test func everyCodePrintsAsItsMember() {
        let codes: [(any ErrorCode, String)] = [
            (RequestBodyError.Code.fileNotFound, "fileNotFound"),
            (RequestBodyError.Code.notARegularFile, "notARegularFile"),
            (RequestBodyError.Code.fileUnreadable, "fileUnreadable"),
            (RequestBodyError.Code.fileChangedSize, "fileChangedSize"),
            (RequestBodyError.Code.alreadyConsumed, "alreadyConsumed"),
            (RequestBodyError.Code.tooLarge, "tooLarge"),
            (RequestBodyError.Code.streamLengthMismatch, "streamLengthMismatch"),
            (RequestBodyError.Code.notSliceable, "notSliceable"),
            (GzipError.Code.initializationFailed, "initializationFailed"),
            (GzipError.Code.deflateFailed, "deflateFailed"),
            (URLEncodedFormError.Code.topLevelNotKeyed, "topLevelNotKeyed"),
            (URLEncodedFormError.Code.nonStringKey, "nonStringKey"),
            (URLEncodedFormError.Code.invalidValue, "invalidValue"),
            (URLEncodedFormError.Code.strategyFailed, "strategyFailed"),
            (RawHTTPRequestError.Code.invalidPath, "invalidPath"),
            (RawHTTPRequestError.Code.invalidAuthority, "invalidAuthority"),
            (RawHTTPRequestError.Code.multipleHosts, "multipleHosts"),
            (JSONBodyError.Code.invalidValue, "invalidValue"),
            (JSONBodyError.Code.invalidRawJSON, "invalidRawJSON"),
            (MultipartError.Code.invalidBoundary, "invalidBoundary"),
            (MultipartError.Code.boundaryInContent, "boundaryInContent"),
            (MultipartError.Code.invalidHeader, "invalidHeader"),
        ]
        for (code, name) in codes {
            #expect(code.description == name)
            #expect("\(code)" == name)
        }
    }

    @Test func codesCompareByMember() {
        let code: RequestBodyError.Code = .tooLarge
        #expect(code == .tooLarge)
        #expect(code != .notSliceable)
        #expect(Set<RequestBodyError.Code>([.tooLarge, .tooLarge, .notSliceable]).count == 2)
    }
}
