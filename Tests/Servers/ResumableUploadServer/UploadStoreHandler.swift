import Crypto
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The application behind `HTTPResumableUploadHandler`: it sees each logical
/// upload as one request, however many requests carried it, writes the body
/// to a file while hashing it, and answers with the sha256 and byte count so
/// a test can check a large upload without reading it again.
///
/// Writes block the event loop; this is a test server with one client at a time.
final class UploadStoreHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let store: UploadStore
    private var current: (request: HTTPRequest, file: URL, handle: FileHandle, hash: SHA256, bytes: Int64)?
    private var failure: (any Error)?

    init(store: UploadStore) {
        self.store = store
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            guard request.method != .options else { return }
            do {
                let (file, handle) = try store.makePartialFile()
                current = (request, file, handle, SHA256(), 0)
            } catch {
                failure = error
            }
        case .body(let buffer):
            guard var upload = current, failure == nil else { return }
            do {
                try buffer.withUnsafeReadableBytes { bytes in
                    try upload.handle.write(contentsOf: bytes)
                    upload.hash.update(bufferPointer: bytes)
                }
                upload.bytes += Int64(buffer.readableBytes)
                current = upload
            } catch {
                failure = error
            }
        case .end:
            finish(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        discardPartialFile()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The upload was cancelled or never resumed: its partial body goes.
        discardPartialFile()
    }

    private func finish(context: ChannelHandlerContext) {
        guard let upload = current else {
            // OPTIONS: the resumable-upload layer adds `Upload-Limit` to this answer.
            respond(status: .noContent, body: nil, contentType: nil, context: context)
            return
        }
        current = nil
        do {
            if let failure { throw failure }
            try upload.handle.close()
            let summary = StoredUpload(
                method: upload.request.method.rawValue,
                path: upload.request.path ?? "",
                headers: upload.request.headerFields.map { [$0.name.rawName, $0.value] },
                bytes: upload.bytes,
                sha256: upload.hash.finalize().map { String(format: "%02x", $0) }.joined()
            )
            let stored = try store.finish(partialFile: upload.file, summary: summary)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let answer = Answer(upload: stored.upload, bytes: stored.bytes, sha256: stored.sha256)
            respond(status: .ok, body: try encoder.encode(answer), contentType: "application/json", context: context)
        } catch {
            try? FileManager.default.removeItem(at: upload.file)
            respond(status: .internalServerError, body: Data("\(error)\n".utf8), contentType: "text/plain", context: context)
        }
    }

    private func discardPartialFile() {
        guard let upload = current else { return }
        current = nil
        try? upload.handle.close()
        try? FileManager.default.removeItem(at: upload.file)
    }

    private func respond(status: HTTPResponse.Status, body: Data?, contentType: String?, context: ChannelHandlerContext) {
        var response = HTTPResponse(status: status)
        if let body, let contentType {
            response.headerFields[.contentType] = contentType
            response.headerFields[.contentLength] = String(body.count)
        }
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if let body {
            context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// The final response's body.
    private struct Answer: Encodable {
        let upload: String
        let bytes: Int64
        let sha256: String
    }
}
