public import Foundation
public import HTTPBody
public import SystemPackage

extension HTTPTask {
    /// Bytes already in memory, sent as they are.
    ///
    /// - Parameters:
    ///   - data: The body's bytes, sent as they are.
    ///   - contentType: The type to declare; `application/octet-stream` by default.
    public static func data(_ data: Data, contentType: MediaType? = .octetStream) -> HTTPTask {
        HTTPTask { .data(data, contentType: contentType) }
    }

    /// A file streamed from disk a chunk at a time, never loaded into memory.
    ///
    /// The file is opened when the request is built; a missing or unreadable
    /// file fails the build with an error naming it.
    /// - Parameters:
    ///   - url: The file; opened when the request is built, read as it is sent.
    ///   - contentType: The type to declare; `application/octet-stream` when `nil`.
    public static func file(at url: URL, contentType: MediaType? = nil) -> HTTPTask {
        HTTPTask {
            try makeFileBody { () throws(RequestBodyError) in try .file(at: url, contentType: contentType) }
        }
    }

    /// A file named by its path's bytes, which need not be UTF-8; see
    /// ``file(at:contentType:)``.
    public static func file(atPath path: FilePath, contentType: MediaType? = nil) -> HTTPTask {
        HTTPTask {
            try makeFileBody { () throws(RequestBodyError) in try .file(atPath: path, contentType: contentType) }
        }
    }

    private static func makeFileBody(_ open: () throws(RequestBodyError) -> RequestBody) throws(RequestError) -> RequestBody {
        do {
            return try open()
        } catch {
            throw RequestError.invalidRequest("Cannot send the file body: \(error.description)", underlying: error)
        }
    }

    /// A body made elsewhere, such as a stream (`RequestBody.stream`).
    public static func body(_ body: RequestBody) -> HTTPTask {
        HTTPTask { body }
    }

    /// A JSON body (`application/json`) encoded from `value` by
    /// `RequestBody.json`, with `encoder` when given.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> HTTPTask {
        HTTPTask {
            try encoding("the JSON body") {
                if let encoder { try RequestBody.json(value, encoder: encoder) } else { try RequestBody.json(value) }
            }
        }
    }

    /// An `application/x-www-form-urlencoded` body encoded from `value`'s properties.
    public static func form(_ value: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask {
            try encoding("the form body") { try RequestBody.form(value, encoder: encoder) }
        }
    }

    /// An `application/x-www-form-urlencoded` body from name-value pairs, in order.
    public static func form(_ pairs: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask { RequestBody.form(pairs, encoder: encoder) }
    }

    /// Runs an encoder or a recipe, turning a failure that is not a
    /// ``RequestError`` already into one naming `what`.
    static func encoding<Output>(_ what: String, _ encode: () throws -> Output) throws(RequestError) -> Output {
        do {
            return try encode()
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError.invalidRequest("Cannot encode \(what): \(RequestError.describeEncodingFailure(error))", underlying: error)
        }
    }
}
