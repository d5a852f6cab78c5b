import AWSSigning
import HTTPBody
import ObjectStorage
import RequestBuilder
import ResumableUploads
import Testing

/// Every error code of the package prints as the static member it is
/// (`tooLarge`), as messages and callers' logs show it, and codes compare by
/// that member alone. Each `Code` spells its name once more as text, so this
/// table is what catches a name that drifted from its member. (Here, where
/// every library module can be imported.)
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
            (RequestError.Code.invalidRequest, "invalidRequest"),
            (RequestError.Code.body, "body"),
            (RequestError.Code.transport, "transport"),
            (RequestError.Code.unacceptableStatus, "unacceptableStatus"),
            (RequestError.Code.responseTooLarge, "responseTooLarge"),
            (RequestError.Code.decoding, "decoding"),
            (RequestError.Code.cancelled, "cancelled"),
            (RequestError.Code.timedOut, "timedOut"),
            (RequestError.Code.redirect, "redirect"),
            (AWSSigningError.Code.missingCredentials, "missingCredentials"),
            (AWSSigningError.Code.invalidRequest, "invalidRequest"),
            (AWSSigningError.Code.invalidExpiry, "invalidExpiry"),
            (AWSSigningError.Code.unknownBodyLength, "unknownBodyLength"),
            (AWSSigningError.Code.bodyLengthMismatch, "bodyLengthMismatch"),
            (S3Error.Code.invalidArgument, "invalidArgument"),
            (S3Error.Code.serviceError, "serviceError"),
            (S3Error.Code.invalidResponse, "invalidResponse"),
            (S3Error.Code.bodyChanged, "bodyChanged"),
            (S3Error.Code.uploadNotFound, "uploadNotFound"),
            (S3Error.Code.invalidConfiguration, "invalidConfiguration"),
            (ResumableUploadError.Code.bodyNotResumable, "bodyNotResumable"),
            (ResumableUploadError.Code.bodyChanged, "bodyChanged"),
            (ResumableUploadError.Code.uploadNotFound, "uploadNotFound"),
            (ResumableUploadError.Code.protocolMismatch, "protocolMismatch"),
            (ResumableUploadError.Code.serverNotCapable, "serverNotCapable"),
            (ResumableUploadError.Code.invalidResponse, "invalidResponse"),
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
