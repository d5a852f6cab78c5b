import Foundation
import HTTPBody
import HTTPBodyTesting
import RequestBuilder
import Testing

/// A golden multipart upload that changed is reported part by part: which
/// part (by its field name and filename), which header, which bytes.
@Suite final class GoldenFileMultipartTests {
    private let folder = FileManager.default.temporaryDirectory
        .appending(path: "golden-multipart-tests-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// An upload as a user's test builds it: a title, a photo, a binary thumbnail.
    private func upload(photoType: String, thumbnail: [UInt8]) async throws -> [UInt8] {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let request = try HTTPRequestBuilder.post("https://api.example.com/v1")
            .path("albums", "7", "photos")
            .multipart(boundary: try .constant("golden-boundary")) { form in
                form.append("Sunset", name: "title")
                form.append(png, name: "photo", filename: "sunset.png", contentType: MediaType(photoType))
                form.append(thumbnail, name: "thumbnail", filename: "thumb.bin", contentType: .octetStream)
            }
            .build()
        return try await request.raw().collect()
    }

    @Test func reportsTheChangedPartHeaderAndTheChangedBytesOfABinaryPartByName() async throws {
        let file = GoldenFile(url: folder.appending(path: "upload.http"))
        let thumbnail = (0..<64).map { UInt8($0) }
        _ = file.check(try await upload(photoType: "image/png", thumbnail: thumbnail), recording: .missing)
        var changedThumbnail = thumbnail
        changedThumbnail[20] = 0xFF

        let failure = file.check(try await upload(photoType: "image/gif", thumbnail: changedThumbnail), recording: .never)

        #expect(failure?.kind == .mismatch)
        let message = failure?.description ?? ""
        #expect(message.contains("Multipart, part by part: 2 of 3 parts differ (- golden, + actual)."), "\(message)")
        #expect(message.contains("\npart 1 (name \"title\"): same\n"), "\(message)")
        #expect(message.contains("""

            part 2 (name "photo", filename "sunset.png"):
              header Content-Type:
              - Content-Type: image/png
              + Content-Type: image/gif
            part 3 (name "thumbnail", filename "thumb.bin"):
              body differs at byte 20 (line 2); expected 64 bytes, got 64.
              golden 0x14, actual 0xff at byte 20; > marks its rows
            """), "\(message)")
        #expect(message.contains("  > 00000010  10 11 12 13 14 15 16 17  18 19 1a 1b 1c 1d 1e 1f  |................|"), "\(message)")
        #expect(message.contains("  > 00000010  10 11 12 13 ff 15 16 17  18 19 1a 1b 1c 1d 1e 1f  |................|"), "\(message)")
        // Same length, same boundary: the request's head is not reported.
        #expect(!message.contains("before the first part"), "\(message)")
    }

    @Test func reportsAPartThatIsMissing() async throws {
        let file = GoldenFile(url: folder.appending(path: "form.multipart"))
        let form = { (fields: [String]) async throws -> [UInt8] in
            var multipart = MultipartFormData(boundary: try .constant("b0undary"))
            for field in fields { multipart.append("value", name: field) }
            return try await RequestBody.multipart(multipart).collect()
        }
        _ = file.check(try await form(["a", "b", "c"]), recording: .missing)
        let message = file.check(try await form(["a", "b"]), recording: .never)?.description ?? ""
        #expect(message.contains("part 3 (name \"c\"): only in golden, missing from actual"), "\(message)")
    }
}
