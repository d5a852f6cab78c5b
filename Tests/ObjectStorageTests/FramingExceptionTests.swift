import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import Testing

/// The one Content-Type the object-store code sets past `wireHead`
/// (docs/architecture.md, "Framing set past wireHead"): the type of the
/// object to be, on the `CreateMultipartUpload` that carries no body.
@Suite struct FramingExceptionTests {
    @Test func createMultipartUploadCarriesTheObjectsTypeWithoutABody() throws {
        let s3 = S3Client(
            endpoint: .aws(region: "eu-west-1"),
            credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"),
            transport: AsyncHTTPClientTransport()
        )
        let body = RequestBody.bytes(Array(repeating: 7, count: 6 * 1024 * 1024), contentType: MediaType("image/png"))
        let upload = try S3MultipartUpload(body: body, to: S3Location(bucket: "photos", key: "a.png"), partSize: 5 * 1024 * 1024)
        let create = try upload.firstRequest(with: s3)
        #expect(create.body == nil)
        #expect(create.head.headerFields[.contentType] == "image/png")
        #expect(create.head.headerFields[.contentLength] == "0", "framing still derived from the (absent) body")
        #expect(create.head.headerFields[.transferEncoding] == nil)
    }
}
