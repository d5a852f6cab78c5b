import AWSSigning
import HTTPBody
import HTTPTypes
import RequestBuilder

extension S3Client {
    /// Whether this client's next payload of `body` goes with its CRC-32 in an
    /// `aws-chunked` trailer: unsigned (over HTTPS, as ``payloadSigning``
    /// says), with CRC-32 as the checksum, of a replayable body of known
    /// length, and no store has refused a trailer from this client yet.
    func sendsChecksumTrailer(of body: RequestBody, algorithm: S3ChecksumAlgorithm) -> Bool {
        algorithm == .crc32 && body.isReplayable && body.length != nil && !signsPayloads && !trailerRefused.withLock { $0 }
    }

    /// Sends the request `build` makes of a payload and the fields that
    /// describe it, and returns the store's response and the payload's
    /// checksum as sent.
    ///
    /// Where ``sendsChecksumTrailer(of:algorithm:)``, the payload goes once,
    /// `aws-chunked` with its CRC-32 in a trailer; a store that refuses the
    /// trailer form (``S3Error/refusesChecksumTrailer``) gets the whole
    /// request again in the header form, and so does every later payload of
    /// this client and its copies. Otherwise the header form: the body read
    /// once for its checksum (and SHA-256 when signed), then sent.
    func sendPayload(
        _ body: RequestBody,
        algorithm: S3ChecksumAlgorithm,
        operation: String,
        location: S3Location,
        progress: @escaping @Sendable (UploadProgress) -> Void,
        build: (RequestBody, HTTPFields) throws -> PreparedRequest
    ) async throws -> (response: Response, checksum: String) {
        if sendsChecksumTrailer(of: body, algorithm: algorithm), let length = body.length {
            let sent = AWSChunkedTrailerEncoding.SentChecksum()
            let request = try build(AWSChunkedTrailerEncoding.encode(body, decodedLength: length, recordingIn: sent), Self.trailerFields(decodedLength: length))
            do {
                let response = try await send(request, operation: operation, location: location, through: trailerClient) { encoded in
                    progress(UploadProgress(bytesSent: min(encoded.bytesSent, length), totalBytes: length))
                }
                guard let checksum = sent.base64 else {
                    throw S3Error(code: .invalidResponse, description: "The store answered \(operation) of \(location) before the body was sent", status: response.status)
                }
                return (response, checksum)
            } catch let error as S3Error where error.refusesChecksumTrailer {
                trailerRefused.withLock { $0 = true }
            }
        }
        let checksum = try await PayloadChecksum(of: body, algorithm: algorithm, signed: signsPayloads)
        let response = try await send(build(body, checksum.headerFields), operation: operation, location: location, progress: progress)
        return (response, checksum.value)
    }

    /// The head fields of a payload sent with its CRC-32 in a trailer.
    static func trailerFields(decodedLength: Int64) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in AWSChunkedTrailerEncoding.headerFields(decodedLength: decodedLength) {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        return fields
    }
}

extension S3Error {
    /// Whether the store refused a request for its checksum trailer
    /// (`STREAMING-UNSIGNED-PAYLOAD-TRAILER`, `aws-chunked`) rather than for
    /// what it asked: any `501 Not Implemented`, or a `400` or `411` with
    /// one of the codes stores that do not know the form answer
    /// (`NotImplemented`, `InvalidArgument`, `InvalidRequest`,
    /// `MissingContentLength`, `XAmzContentSHA256Mismatch`). A wrong checksum
    /// (`BadDigest`) is not one: the bytes, not the form, were refused.
    var refusesChecksumTrailer: Bool {
        guard let status else { return false }
        if status.code == 501 { return true }
        guard status.code == 400 || status.code == 411, let serviceCode else { return false }
        return ["NotImplemented", "InvalidArgument", "InvalidRequest", "MissingContentLength", "XAmzContentSHA256Mismatch"].contains(serviceCode)
    }
}
