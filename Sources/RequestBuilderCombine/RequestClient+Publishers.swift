#if canImport(Combine)
public import Combine
#else
public import OpenCombine
#endif
public import Foundation
public import RequestBuilder

extension RequestClient {
    /// A publisher that sends `request` when subscribed and publishes the
    /// response once its status is accepted and its body read.
    ///
    /// ```swift
    /// client.responsePublisher(for: request)
    ///     .sink { completion in … } receiveValue: { response in … }
    /// ```
    ///
    /// Each subscription sends the request anew, once it has demand;
    /// cancelling the subscription cancels the request. The middleware run
    /// as for `RequestClient.send(_:maximumBodySize:progress:)`,
    /// so retry and logging need no Combine operators of their own.
    ///
    /// A subscription made on the main queue (main-actor code: a view,
    /// Swift 6 top-level code) gets its values and completion there, so a
    /// main-actor `sink` runs where Swift 6 requires it to. Any other gets
    /// them on the task that sends the request, a thread of Swift's global
    /// concurrent executor (a value that waited for demand arrives on the
    /// thread that asked for more); `.receive(on:)` chooses
    /// another place.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - maximumBodySize: The largest response body read into memory.
    public func responsePublisher(
        for request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize
    ) -> AnyPublisher<Response, RequestError> {
        TaskPublisher { _ in
            try await send(request, maximumBodySize: maximumBodySize)
        }.eraseToAnyPublisher()
    }

    /// A publisher that sends `request` when subscribed and publishes the
    /// response body decoded as JSON into `type`.
    ///
    /// ```swift
    /// let posts: AnyPublisher<[Post], RequestError> = client.responsePublisher(for: request, decoding: [Post].self)
    /// ```
    ///
    /// A body that does not decode fails with `RequestError.Code.decoding`.
    ///
    /// A subscription made on the main queue (main-actor code: a view,
    /// Swift 6 top-level code) gets its values and completion there, so a
    /// main-actor `sink` runs where Swift 6 requires it to. Any other gets
    /// them on the task that sends the request, a thread of Swift's global
    /// concurrent executor (a value that waited for demand arrives on the
    /// thread that asked for more); `.receive(on:)` chooses
    /// another place.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - type: The type the body decodes to.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    public func responsePublisher<Value: Decodable & Sendable>(
        for request: PreparedRequest,
        decoding type: Value.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) -> AnyPublisher<Value, RequestError> {
        TaskPublisher { _ in
            try await send(request, decoding: type, decoder: decoder)
        }.eraseToAnyPublisher()
    }

    /// A publisher that sends `request` when subscribed and publishes its
    /// upload progress, then the response.
    ///
    /// ```swift
    /// client.progressPublisher(for: request)
    ///     .sink { completion in … } receiveValue: { event in
    ///         switch event {
    ///         case .progress(let progress): bar.show(progress.fractionCompleted)
    ///         case .response(let response): done(response)
    ///         }
    ///     }
    /// ```
    ///
    /// A progress report the subscriber has no demand for waits, replaced by
    /// any newer one, so a slow subscriber skips stale reports but gets the
    /// latest; the response waits for demand after it. Cancelling the
    /// subscription cancels the request.
    ///
    /// A subscription made on the main queue (main-actor code: a view,
    /// Swift 6 top-level code) gets its values and completion there, so a
    /// main-actor `sink` runs where Swift 6 requires it to. Any other gets
    /// them on the task that sends the request, a thread of Swift's global
    /// concurrent executor (a value that waited for demand arrives on the
    /// thread that asked for more); `.receive(on:)` chooses
    /// another place.
    ///
    /// - Parameters:
    ///   - request: The request to send for each subscription.
    ///   - maximumBodySize: The largest response body read into memory.
    public func progressPublisher(
        for request: PreparedRequest,
        maximumBodySize: Int = Response.defaultMaximumBodySize
    ) -> AnyPublisher<UploadEvent, RequestError> {
        TaskPublisher { offer in
            let upload = sendWithProgress(request, maximumBodySize: maximumBodySize)
            for await progress in upload.progress { offer(.progress(progress)) }
            return .response(try await upload.response)
        }.eraseToAnyPublisher()
    }
}
