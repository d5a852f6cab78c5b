import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
public import RequestBuilder
import ResumableUploads

extension S3MultipartUpload {
    /// Sends the upload, from the start or from `state`.
    ///
    /// - Parameters:
    ///   - client: Signs and sends each step.
    ///   - state: A state saved from an earlier run of this upload, to
    ///     continue it: the parts the store holds (`ListParts`) whose size and
    ///     checksum (else `ETag`, an MD5) match the body are kept, the rest
    ///     sent, with the checksum the upload began with. `nil` to begin anew.
    ///   - stateChanged: Called with the state to persist once the store has
    ///     created the upload, before the first part is sent.
    ///   - progress: Bytes the store holds or has been sent, across parts.
    /// - Throws: ``S3Error``: ``S3Error/Code/bodyChanged`` (nothing sent) when
    ///   the body changed since `state` was saved; the store's refusal of a
    ///   step; `RequestError` when a step cannot be sent after its retries.
    ///   The upload is aborted first when ``abortsOnFailure`` is on, unless
    ///   the calling task was cancelled.
    public func send(
        with client: S3Client,
        resumingFrom state: State? = nil,
        stateChanged: @escaping @Sendable (State) async throws -> Void = { _ in },
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Result {
        try await client.retry.withinBudget {
            try await sendWithinBudget(with: client, resumingFrom: state, stateChanged: stateChanged, progress: progress)
        }
    }

    /// ``send(with:resumingFrom:stateChanged:progress:)`` inside the client's
    /// retry budget, which all its steps share.
    private func sendWithinBudget(
        with client: S3Client,
        resumingFrom state: State?,
        stateChanged: @escaping @Sendable (State) async throws -> Void,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Result {
        let resuming = state != nil
        let state = try await begin(with: client, resumingFrom: state)
        try await stateChanged(state)
        do {
            var parts = resuming ? try await heldParts(of: state, with: client) : [:]
            let resumed = parts.count
            let held = parts.values.reduce(Int64(0)) { $0 + $1.size }
            progress(UploadProgress(bytesSent: held, totalBytes: identity.length))
            let missing = (1...partCount).filter { parts[$0] == nil }
            for part in try await sendParts(missing, of: state, alreadyHeld: held, with: client, progress: progress) {
                parts[part.number] = part
            }
            let ordered = (1...partCount).compactMap { parts[$0] }
            let response = try await complete(state, parts: ordered, with: client)
            let eTag = (try? S3XMLReader.parse(Array(response.body)))?.text(of: "ETag")
            return Result(location: location, eTag: eTag, partsResumed: resumed, response: response)
        } catch {
            if abortsOnFailure, !Task.isCancelled {
                try? await abort(state, with: client)
            }
            throw error
        }
    }

    /// Asks the store to delete the upload and every part it holds.
    ///
    /// - Throws: ``S3Error`` when the store refuses; `NoSuchUpload` (already
    ///   completed or aborted) is not an error.
    public func abort(_ state: State, with client: S3Client) async throws {
        do {
            _ = try await client.send(abortRequest(uploadID: state.uploadID, with: client), operation: "AbortMultipartUpload", location: location)
        } catch let error as S3Error where error.code == .uploadNotFound {
            return
        }
    }

    /// The upload's state: a new upload's, or `saved` once it is checked against the body.
    private func begin(with client: S3Client, resumingFrom saved: State?) async throws -> State {
        if let saved {
            guard saved.bucket == location.bucket, saved.key == location.key else {
                throw S3Error(code: .invalidArgument, description: "The saved upload \(saved.uploadID) is of s3://\(saved.bucket)/\(saved.key), not \(location)")
            }
            guard saved.partSize == partSize else {
                throw S3Error(code: .invalidArgument, description: "The saved upload of \(location) was cut into parts of \(saved.partSize) bytes, not \(partSize)")
            }
            if let difference = saved.body.difference(from: identity) {
                throw S3Error(code: .bodyChanged, description: "The multipart upload of \(location) cannot continue: \(difference)")
            }
            return saved
        }
        let response = try await client.send(createRequest(with: client), operation: "CreateMultipartUpload", location: location)
        guard let result = try? S3XMLReader.parse(Array(response.body)),
              let uploadID = result.text(of: "UploadId"), !uploadID.isEmpty, uploadID.utf8.count <= 1024
        else {
            throw S3Error(code: .invalidResponse, description: "The store's answer to CreateMultipartUpload of \(location) holds no UploadId", status: response.status)
        }
        return State(
            uploadID: uploadID, bucket: location.bucket, key: location.key, partSize: partSize, body: identity,
            checksumAlgorithm: client.checksumAlgorithm
        )
    }

    /// The parts the store holds that match the body, by number.
    private func heldParts(of state: State, with client: S3Client) async throws -> [Int: S3UploadedPart] {
        var listed: [Int: S3UploadedPart] = [:]
        var marker = 0
        // Each page must move the marker on, and none past the body's last
        // part can list one it needs: at most partCount pages, whatever a
        // hostile store says.
        while marker < partCount {
            let response = try await client.send(listRequest(uploadID: state.uploadID, after: marker, with: client), operation: "ListParts", location: location)
            let page = try Self.readPartList(response, algorithm: state.checksumAlgorithm, location: location)
            for part in page.parts where (1...partCount).contains(part.number) {
                listed[part.number] = part
            }
            guard page.isTruncated else { break }
            guard let next = page.nextMarker, next > marker else {
                throw S3Error(
                    code: .invalidResponse,
                    description: "The store's ListParts answer for \(location) says there are more parts but does not move past part \(marker)",
                    status: response.status
                )
            }
            marker = next
        }
        var kept: [Int: S3UploadedPart] = [:]
        for (number, part) in listed {
            let range = self.range(ofPart: number)
            guard part.size == range.upperBound - range.lowerBound else { continue }
            let checksum = try await PayloadChecksum.value(of: body.slice(range), algorithm: state.checksumAlgorithm)
            if let listed = part.checksum {
                guard listed == checksum else { continue }
            } else {
                // A store that keeps no checksum: the part's ETag is the MD5 of its bytes.
                guard Self.unquoted(part.eTag).lowercased() == (try await PartMD5.hex(of: body.slice(range))) else { continue }
            }
            kept[number] = S3UploadedPart(number: number, eTag: part.eTag, checksum: checksum, size: part.size)
        }
        return kept
    }

    /// Reads a `ListPartsResult`, with each part's `algorithm` checksum when it lists one.
    static func readPartList(
        _ response: Response,
        algorithm: S3ChecksumAlgorithm,
        location: S3Location
    ) throws(S3Error) -> (parts: [S3UploadedPart], isTruncated: Bool, nextMarker: Int?) {
        // S3 names the root ListPartsResult; moto, ListPartsResponse.
        guard let result = try? S3XMLReader.parse(Array(response.body)), result.name.hasPrefix("ListParts") else {
            throw S3Error(code: .invalidResponse, description: "The store's answer to ListParts of \(location) is not a ListPartsResult", status: response.status)
        }
        var parts: [S3UploadedPart] = []
        for element in result.children(named: "Part") {
            guard let number = element.text(of: "PartNumber").flatMap({ Int($0) }), (1...10_000).contains(number),
                  let eTag = element.text(of: "ETag"), let size = element.text(of: "Size").flatMap({ Int64($0) }), size >= 0
            else {
                throw S3Error(code: .invalidResponse, description: "The store's ListParts answer for \(location) has a part without a valid PartNumber, ETag or Size", status: response.status)
            }
            parts.append(S3UploadedPart(number: number, eTag: eTag, checksum: element.text(of: algorithm.elementName), size: size))
        }
        return (parts, result.text(of: "IsTruncated") == "true", result.text(of: "NextPartNumberMarker").flatMap { Int($0) })
    }

    /// Sends `numbers`' parts, at most ``concurrency`` at once, and returns them as the store took them.
    private func sendParts(
        _ numbers: [Int],
        of state: State,
        alreadyHeld: Int64,
        with client: S3Client,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> [S3UploadedPart] {
        let counter = PartProgress(alreadyHeld: alreadyHeld, total: identity.length, report: progress)
        var sent: [S3UploadedPart] = []
        sent.reserveCapacity(numbers.count)
        try await forEachConcurrently(numbers, atMost: concurrency, { (number: Int) async throws(any Error) in
            try await sendPart(number, of: state, with: client, counter: counter)
        }, collect: { sent.append($0) })
        return sent
    }

    /// Sends one part with its checksum (see `S3Client.sendPayload`), in one of the client's transfer slots.
    private func sendPart(_ number: Int, of state: State, with client: S3Client, counter: PartProgress) async throws -> S3UploadedPart {
        try await client.transfer {
            try await sendPartNow(number, of: state, with: client, counter: counter)
        }
    }

    private func sendPartNow(_ number: Int, of state: State, with client: S3Client, counter: PartProgress) async throws -> S3UploadedPart {
        let range = self.range(ofPart: number)
        let slice = try body.slice(range)
        let (response, checksum) = try await client.sendPayload(
            slice, algorithm: state.checksumAlgorithm, operation: "UploadPart \(number)", location: location,
            progress: { sent in counter.update(part: number, sent: sent.bytesSent) }
        ) {
            try partRequest(number: number, uploadID: state.uploadID, payload: $0, fields: $1, with: client)
        }
        guard let eTag = response.headerFields[.eTag], !eTag.isEmpty else {
            throw S3Error(code: .invalidResponse, description: "The store took part \(number) of \(location) without an ETag", status: response.status)
        }
        counter.update(part: number, sent: range.upperBound - range.lowerBound)
        return S3UploadedPart(number: number, eTag: eTag, checksum: checksum, size: range.upperBound - range.lowerBound)
    }

    /// Completes the upload; a `200` holding an `<Error>` fails (``S3Client`` retries a transient one).
    private func complete(_ state: State, parts: [S3UploadedPart], with client: S3Client) async throws -> Response {
        let request = try completeRequest(uploadID: state.uploadID, parts: parts, algorithm: state.checksumAlgorithm, with: client)
        let response = try await client.send(request, operation: "CompleteMultipartUpload", location: location)
        guard (try? S3XMLReader.parse(Array(response.body))) != nil else {
            throw S3Error(code: .invalidResponse, description: "The store's answer to CompleteMultipartUpload of \(location) is not XML", status: response.status)
        }
        return response
    }

    /// An ETag without the quotes around it (`"9b2cf5…"` is `9b2cf5…`).
    static func unquoted(_ tag: String) -> Substring {
        var text = Substring(tag)
        while text.first == "\"" { text.removeFirst() }
        while text.last == "\"" { text.removeLast() }
        return text
    }
}
