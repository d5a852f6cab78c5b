import AWSSigning
import HTTPBody
import ObjectStorage
import RequestBuilder
import ResumableUploads
import Testing

/// The error codes of the modules above HTTPBody print as the static member
/// they are (`unacceptableStatus`), as messages and logs show them. Each
/// `Code` spells its name once more as text, so this table is what catches a
/// name that drifted from its member.
@Suite struct ErrorCodeNameTests {
    @Test func everyCodePrintsAsItsMember() {
        let codes: [(any ErrorCode, String)] = [
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
        }
    }
}
