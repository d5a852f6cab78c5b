import RequestBuilder

/// What a server's answer to an append means.
enum AppendAnswer: Sendable {
    /// The server holds the bytes: its successful answer, whose offset the
    /// engine checks.
    case accepted(Response)
    /// The upload is over: the answer to the complete request, as the
    /// application gets it.
    case final(Response)
    /// The server refused the append: answered by asking for its offset and
    /// sending again, as long as the retry policy allows.
    case refused(any Error)
}

/// A failure after the completing request's response head arrived: thrown
/// as it is, never answered by asking for the offset and sending again.
struct AnsweredAttemptFailed: Error {
    let underlying: any Error
    init(_ underlying: any Error) { self.underlying = underlying }
}
