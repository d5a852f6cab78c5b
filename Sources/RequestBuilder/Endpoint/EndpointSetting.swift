import Foundation

/// Reads an endpoint's optional settings whatever type their author declared
/// them with.
///
/// ``Endpoint/timeout`` and ``Endpoint/sampleData`` have defaults, so a
/// constrained type would let a declaration of any other type compile and be
/// passed over for the default without a word. Their types are left open
/// instead, inferred from the declaration, and read here: a type that cannot
/// mean a timeout (or sample bytes) is an error naming the endpoint, never
/// silently ignored.
enum EndpointSetting {
    /// The longest timeout taken as given, in seconds (about 31 years):
    /// `Duration.seconds(_:)` traps on values near 1e18, and nothing waits
    /// that long, so a longer one means "no limit" and is cut to this.
    static let longestTimeout = 1e9

    /// The timeout a setting means: `nil` for none.
    ///
    /// - Throws: ``RequestError`` when the value has a type other than
    ///   `Duration`, `Double`, `Float` or `Int` (or an optional of one), or is
    ///   zero, negative or not a number.
    static func duration<Endpoint>(of value: Any, in endpoint: Endpoint.Type) throws(RequestError) -> Duration? {
        guard let value = unwrapped(value) else { return nil }
        let duration: Duration
        switch value {
        case let value as Duration:
            duration = value
        case let seconds as Double:
            duration = try self.duration(seconds: seconds, in: endpoint)
        case let seconds as Float:
            duration = try self.duration(seconds: Double(seconds), in: endpoint)
        case let seconds as Int:
            duration = try self.duration(seconds: Double(seconds), in: endpoint)
        default:
            throw RequestError.invalidRequest(
                "The timeout of endpoint \(endpoint) is a \(type(of: value)); declare it as a Duration, a TimeInterval or an Int of seconds, or an optional of one"
            )
        }
        guard duration > .zero else {
            throw RequestError.invalidRequest("The timeout of endpoint \(endpoint) is \(duration); it must be positive")
        }
        return duration
    }

    /// Sample bytes a setting holds: `nil` for none.
    ///
    /// - Throws: ``RequestError`` when the value is neither `Data` nor `Data?`.
    static func data<Endpoint>(of value: Any, in endpoint: Endpoint.Type) throws(RequestError) -> Data? {
        guard let value = unwrapped(value) else { return nil }
        guard let data = value as? Data else {
            throw RequestError.invalidRequest("The sample data of endpoint \(endpoint) is a \(type(of: value)); declare it as Data or Data?")
        }
        return data
    }

    private static func duration<Endpoint>(seconds: Double, in endpoint: Endpoint.Type) throws(RequestError) -> Duration {
        guard seconds.isFinite, seconds > 0 else {
            throw RequestError.invalidRequest("The timeout of endpoint \(endpoint) is \(seconds) seconds; it must be a positive number")
        }
        return .seconds(min(seconds, longestTimeout))
    }

    /// The value inside any depth of optionals, or `nil` when one is empty.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let wrapped = mirror.children.first?.value else { return nil }
        return unwrapped(wrapped)
    }
}
