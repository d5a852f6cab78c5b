#if canImport(Combine)
import Combine
#else
import OpenCombine
import OpenCombineDispatch
#endif
import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import RequestBuilderCombine
import TestSupport
import Testing

@Suite("RequestBuilderCombine: publishers for a response and for upload progress")
struct CombinePublisherTests {
    struct Greeting: Decodable, Equatable, Sendable {
        var text: String
    }

    static let client = RequestClient(transport: AsyncHTTPClientTransport())

    /// Never called: it compiles the README's Combine snippet.
    static func readmeSnippet(client: RequestClient, request: PreparedRequest, upload: PreparedRequest) {
        struct Post: Decodable, Sendable {}
        // README Combine snippet begins
        let posts: AnyPublisher<[Post], RequestError> = client.responsePublisher(for: request, decoding: [Post].self)
        // Subscribed on the main queue (main-actor code such as a view), delivered there; elsewhere on a background thread
        let uploadEvents = client.progressPublisher(for: upload)  // .progress(UploadProgress)…, then .response(Response)
        // README Combine snippet ends
        _ = (posts, uploadEvents)
    }

    @Test func readmeShowsTheSnippetCompiledHere() throws {
        let readmeCode = try ReadmeSnippet.readmeBlock(in: "Combine", at: 0)
        #expect(!readmeCode.isEmpty)
        #expect(try ReadmeSnippet.compiled(named: "README Combine snippet", in: #filePath) == readmeCode)
    }

    @Test("responsePublisher sends on subscription and publishes the response, once per subscription")
    func responsePublisherPublishesTheResponse() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "hello")]))
        let publisher = Self.client.responsePublisher(for: try HTTPRequestBuilder(.get, server.url()).build())
        #expect(server.requests.isEmpty)

        var bodies: [String] = []
        for try await response in publisher.values { bodies.append(String(decoding: response.body, as: UTF8.self)) }
        for try await response in publisher.values { bodies.append(String(decoding: response.body, as: UTF8.self)) }
        try await server.stop()

        #expect(bodies == ["hello", "hello"])
        #expect(server.requests.count == 2)
    }

    @Test("The decoding publisher publishes the value, and fails with RequestError codes the caller can switch on")
    func decodingPublisherDecodesAndFails() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([
            .status(200, body: #"{"text": "hi"}"#), .status(200, body: "not json"), .status(503),
        ]))
        let publisher = Self.client.responsePublisher(for: try HTTPRequestBuilder(.get, server.url()).build(), decoding: Greeting.self)

        var greetings: [Greeting] = []
        for try await greeting in publisher.values { greetings.append(greeting) }
        var codes: [RequestError.Code] = []
        for _ in 0..<2 {
            do {
                for try await _ in publisher.values {}
            } catch let error as RequestError {
                codes.append(error.code)
            }
        }
        try await server.stop()

        #expect(greetings == [Greeting(text: "hi")])
        #expect(codes == [.decoding, .unacceptableStatus])
    }

    @Test("progressPublisher publishes rising progress, then the response as its last value")
    func progressPublisherEndsWithTheResponse() async throws {
        let size = 2 * 1024 * 1024
        let server = try await TestHTTPServer.start(script: .sequence([.status(201)]))
        let request = try HTTPRequestBuilder(.post, server.url(path: "/up")).data(Data(count: size)).build()

        var sent: [Int64] = []
        var responses: [Response] = []
        for try await event in Self.client.progressPublisher(for: request).values {
            switch event {
            case .progress(let progress): sent.append(progress.bytesSent)
            case .response(let response): responses.append(response)
            }
        }
        try await server.stop()

        #expect(sent.last == Int64(size))
        #expect(sent == sent.sorted())
        #expect(responses.map(\.status) == [.created])
    }

    @Test("Cancelling the subscription cancels the request: the connection closes and nothing is published")
    func cancellingTheSubscriptionCancelsTheRequest() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, delay: .seconds(60))]))
        let published = Published()
        let subscription = Self.client.responsePublisher(for: try HTTPRequestBuilder(.get, server.url()).build())
            .sink { _ in published.record() } receiveValue: { _ in published.record() }
        while server.requests.first?.isComplete != true { try await Task.sleep(for: .milliseconds(10)) }
        subscription.cancel()

        #expect(try await server.waitForClosedConnections())
        try await server.stop()
        #expect(published.count == 0)
    }
}

extension CombinePublisherTests {
    /// The main queue as the platform's Combine scheduler (OpenCombine's wraps the queue).
    #if canImport(Combine)
    static var mainScheduler: DispatchQueue { DispatchQueue.main }
    #else
    static var mainScheduler: DispatchQueue.OCombine { DispatchQueue.main.ocombine }
    #endif

    /// A sink written in main-actor code, as in Swift 6 top-level code or a
    /// view: its closures are main-actor isolated, and Swift 6 stops the
    /// process if they run off the main queue. The test runs on the main
    /// actor and awaits, so the main queue drains while it waits.
    @MainActor
    @Test(".receive(on:) the main queue delivers values and the completion to a main-actor sink there")
    func mainActorSinkReceivesOnTheMainQueue() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "hello"), .status(201)]))
        let get = try HTTPRequestBuilder(.get, server.url()).build()
        let post = try HTTPRequestBuilder(.post, server.url(path: "/up")).data(Data(count: 64 * 1024)).build()
        let seen = MainActorSink()

        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            seen.keep(Self.client.responsePublisher(for: get).receive(on: Self.mainScheduler).sink { _ in
                seen.record("completion")
                seen.keep(Self.client.progressPublisher(for: post).receive(on: Self.mainScheduler).sink { _ in
                    seen.record("completion")
                    done.resume()
                } receiveValue: { event in
                    if case .response(let response) = event { seen.record("\(response.status.code)") }
                })
            } receiveValue: { response in
                seen.record(String(decoding: response.body, as: UTF8.self))
            })
        }
        try await server.stop()

        #expect(seen.events == ["hello", "completion", "201", "completion"])
        #expect(seen.offMainQueue == 0, "every value and completion must arrive on the main queue")
    }

    /// The same sink without `.receive(on:)`: subscribed on the main queue, it
    /// is delivered to there, rather than the process stopping with SIGILL
    /// when Swift 6 finds its main-actor closure on another thread.
    @MainActor
    @Test("A main-actor sink without .receive(on:) is delivered to on the main queue")
    func mainActorSinkWithoutReceiveOnDoesNotCrash() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "hello"), .status(201)]))
        let get = try HTTPRequestBuilder(.get, server.url()).build()
        let post = try HTTPRequestBuilder(.post, server.url(path: "/up")).data(Data(count: 64 * 1024)).build()
        let seen = MainActorSink()

        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            seen.keep(Self.client.responsePublisher(for: get).sink { _ in
                seen.record("completion")
                seen.keep(Self.client.progressPublisher(for: post).sink { _ in
                    seen.record("completion")
                    done.resume()
                } receiveValue: { event in
                    if case .response(let response) = event { seen.record("\(response.status.code)") }
                })
            } receiveValue: { response in
                seen.record(String(decoding: response.body, as: UTF8.self))
            })
        }
        try await server.stop()

        #expect(seen.events == ["hello", "completion", "201", "completion"])
        #expect(seen.offMainQueue == 0, "every value and completion must arrive on the main queue")
    }
}

/// What a main-actor sink saw, and how often it ran off the main queue.
///
/// The main queue is recognised by a value set on it, not by
/// `Thread.isMainThread`: under the Linux test runner the main queue is
/// drained on a thread other than the process's first, where
/// `Thread.isMainThread` is false.
@MainActor
private final class MainActorSink {
    private(set) var events: [String] = []
    private(set) var offMainQueue = 0
    private var subscriptions: [AnyCancellable] = []
    private let mainQueueKey = DispatchSpecificKey<Bool>()

    init() {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }

    func record(_ event: String) {
        events.append(event)
        if DispatchQueue.getSpecific(key: mainQueueKey) != true { offMainQueue += 1 }
    }

    func keep(_ subscription: AnyCancellable) {
        subscriptions.append(subscription)
    }
}

/// Counts what a subscriber received; the sink may run on any thread.
private final class Published: @unchecked Sendable {
    // @unchecked Sendable: `events` is only touched under `lock`.
    private let lock = NSLock()
    private var events = 0

    func record() {
        lock.lock()
        events += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
