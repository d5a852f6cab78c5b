import HTTPBody

/// Where ``CookieMiddleware`` keeps cookies between requests: in memory
/// (``InMemoryCookieStore``), or a store of yours, such as one that saves
/// the jar to a file or a keychain.
///
/// One requirement: give `body` the jar to read and change, alone, and
/// keep what it leaves. The rules (which cookie is taken, which is sent)
/// are the ``CookieJar``'s, so every store keeps them alike.
public protocol CookieStore: Sendable {
    /// Runs `body` with the store's jar, no other call running on it at
    /// the same time, and keeps the jar as `body` leaves it.
    func withJar<Result>(_ body: (inout CookieJar) throws -> Result) rethrows -> Result
}

extension CookieStore {
    /// A copy of the jar as it is now, for saving or inspecting.
    public func snapshot() -> CookieJar {
        withJar { $0 }
    }
}

/// A ``CookieStore`` in memory: the cookies last as long as it does.
///
/// The jar is read and changed only under a lock, so calls from any task
/// see one jar in one order.
public final class InMemoryCookieStore: CookieStore {
    private let jar: LockedValue<CookieJar>

    /// A store holding `jar`, empty by default.
    public init(_ jar: CookieJar = CookieJar()) {
        self.jar = LockedValue(jar)
    }

    /// Runs `body` with the jar, under the store's lock.
    public func withJar<Result>(_ body: (inout CookieJar) throws -> Result) rethrows -> Result {
        try jar.withLock(body)
    }
}

extension CookieStore where Self == InMemoryCookieStore {
    /// A new in-memory store holding `jar`; see ``InMemoryCookieStore``.
    public static func inMemory(_ jar: CookieJar = CookieJar()) -> InMemoryCookieStore {
        InMemoryCookieStore(jar)
    }
}
