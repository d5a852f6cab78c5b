import Foundation
import RequestBuilder

/// What one resumable upload protocol says that another does not: how to
/// ask the server for its offset, how to frame an append, and how to read
/// the answer to one. ``ResumeEngine`` runs the algorithm they share.
protocol ResumeDialect: Sendable {
    /// Who answers, as error descriptions name it ("The tus server").
    var serverName: String { get }

    /// The request that asks for the offset of the upload at `url`.
    func offsetRequest(at url: URL) throws -> PreparedRequest

    /// The offset a successful answer to ``offsetRequest(at:)`` reports,
    /// checked against the body's `length`.
    func offset(in response: Response, length: Int64) throws -> Int64

    /// An append of the body's bytes in `range` to the upload at `url`; the
    /// body is `length` bytes long, so the append that reaches it completes.
    func appendRequest(to url: URL, range: Range<Int64>, length: Int64) async throws -> PreparedRequest

    /// What the server's answer to the append of `range` means.
    func answer(to head: StreamedResponse, range: Range<Int64>, length: Int64) async throws -> AppendAnswer

    /// The failure a refused append is retried as: the protocol's own
    /// statuses that call for asking the offset and sending again.
    func retryable(_ failure: any Error) -> any Error
}

extension ResumeDialect {
    func retryable(_ failure: any Error) -> any Error { failure }
}
