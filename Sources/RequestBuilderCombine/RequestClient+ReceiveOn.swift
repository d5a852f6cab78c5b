#if canImport(Combine)
public import Combine
#else
public import OpenCombine
internal import OpenCombineDispatch
#endif
public import Foundation
public import RequestBuilder

// The publishers with the scheduler they deliver on. Without one, a
// subscription made on the main queue is delivered to there and any other on
// the task that sends the request; `receiveOn:` is `.receive(on:)` spelled
// where the publisher is made, for subscribers that want another queue.

extension RequestClient {
    /// ``RequestBuilder/RequestClient/responsePublisher(for:maximumBodySize:)``, delivering the response
    /// and the completion on `queue`.
    ///
    /// ```swift
    /// client.responsePublisher(for: request, receiveOn: .main)
    ///     .sink { completion in … } receiveValue: { response in label.text = … }
    /// ```
    ///
    /// Pass `.main` when the subscriber is main-actor code. The same as
    /// chaining `.receive(on: queue)`, and on every platform: with
    /// OpenCombine (Linux) the queue's OpenCombine scheduler is used.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - maximumBodySize: The largest response body read into memory.
    ///   - queue: Where the subscriber receives the value and the completion.
    public func responsePublisher(
        for request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize,
        receiveOn queue: DispatchQueue
    ) -> AnyPublisher<Response, RequestError> {
        // Not through the `some Scheduler` overload: on Apple platforms a queue
        // is a scheduler, and this overload, the more specific, would call itself.
        responsePublisher(for: request, maximumBodySize: maximumBodySize)
            .receive(on: Self.scheduler(queue))
            .eraseToAnyPublisher()
    }

    /// ``RequestBuilder/RequestClient/responsePublisher(for:maximumBodySize:)``, delivering the response
    /// and the completion on `scheduler`, as `.receive(on: scheduler)` does.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - maximumBodySize: The largest response body read into memory.
    ///   - scheduler: Where the subscriber receives the value and the completion.
    public func responsePublisher(
        for request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize,
        receiveOn scheduler: some Scheduler
    ) -> AnyPublisher<Response, RequestError> {
        responsePublisher(for: request, maximumBodySize: maximumBodySize)
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }

    /// ``RequestBuilder/RequestClient/responsePublisher(for:decoding:decoder:)``, delivering the decoded
    /// value and the completion on `queue`.
    ///
    /// ```swift
    /// client.responsePublisher(for: request, decoding: [Post].self, receiveOn: .main)
    /// ```
    ///
    /// Pass `.main` when the subscriber is main-actor code. The same as
    /// chaining `.receive(on: queue)`, on every platform.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - type: The type the body decodes to.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    ///   - queue: Where the subscriber receives the value and the completion.
    public func responsePublisher<Value: Decodable & Sendable>(
        for request: PreparedRequest,
        decoding type: Value.Type,
        decoder: JSONDecoder = JSONDecoder(),
        receiveOn queue: DispatchQueue
    ) -> AnyPublisher<Value, RequestError> {
        responsePublisher(for: request, decoding: type, decoder: decoder)
            .receive(on: Self.scheduler(queue))
            .eraseToAnyPublisher()
    }

    /// ``RequestBuilder/RequestClient/responsePublisher(for:decoding:decoder:)``, delivering the decoded
    /// value and the completion on `scheduler`, as `.receive(on: scheduler)` does.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - type: The type the body decodes to.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    ///   - scheduler: Where the subscriber receives the value and the completion.
    public func responsePublisher<Value: Decodable & Sendable>(
        for request: PreparedRequest,
        decoding type: Value.Type,
        decoder: JSONDecoder = JSONDecoder(),
        receiveOn scheduler: some Scheduler
    ) -> AnyPublisher<Value, RequestError> {
        responsePublisher(for: request, decoding: type, decoder: decoder)
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }

    /// ``RequestBuilder/RequestClient/progressPublisher(for:maximumBodySize:)``, delivering progress, the
    /// response and the completion on `queue`.
    ///
    /// ```swift
    /// client.progressPublisher(for: upload, receiveOn: .main)
    /// ```
    ///
    /// Pass `.main` when the subscriber is main-actor code. The same as
    /// chaining `.receive(on: queue)`, on every platform.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - maximumBodySize: The largest response body read into memory.
    ///   - queue: Where the subscriber receives the events and the completion.
    public func progressPublisher(
        for request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize,
        receiveOn queue: DispatchQueue
    ) -> AnyPublisher<UploadEvent, RequestError> {
        progressPublisher(for: request, maximumBodySize: maximumBodySize)
            .receive(on: Self.scheduler(queue))
            .eraseToAnyPublisher()
    }

    /// ``RequestBuilder/RequestClient/progressPublisher(for:maximumBodySize:)``, delivering progress, the
    /// response and the completion on `scheduler`, as `.receive(on: scheduler)` does.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - maximumBodySize: The largest response body read into memory.
    ///   - scheduler: Where the subscriber receives the events and the completion.
    public func progressPublisher(
        for request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize,
        receiveOn scheduler: some Scheduler
    ) -> AnyPublisher<UploadEvent, RequestError> {
        progressPublisher(for: request, maximumBodySize: maximumBodySize)
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }

    /// A dispatch queue as a scheduler: Combine's queues are schedulers
    /// themselves; OpenCombine wraps them.
    #if canImport(Combine)
    private static func scheduler(_ queue: DispatchQueue) -> DispatchQueue { queue }
    #else
    private static func scheduler(_ queue: DispatchQueue) -> DispatchQueue.OCombine { queue.ocombine }
    #endif
}
