import HTTPBody
import HTTPBodyTesting
import RequestBuilder
import Testing

@Test func uploadsAPhotoWithItsTitle() async throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]  // a PNG's signature
    let request = try HTTPRequestBuilder.post("https://api.example.com/v1")
        .path("albums", "7", "photos")
        .bearer("test-token")
        .multipart(boundary: try .constant("golden-boundary")) { form in
            form.append("Sunset", name: "title")
            form.append(png, name: "photo", filename: "sunset.png")  // type sniffed: image/png
        }
        .build()
    // The first run writes __Snapshots__/ReadmeGoldenFileTest/uploadsAPhotoWithItsTitle.upload.http
    // and fails so you look at it; later runs compare byte for byte.
    try await expectGolden(request.raw(), named: "upload.http")
}
