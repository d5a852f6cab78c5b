/// The type of a near-miss member an endpoint does not declare, such as
/// `timout`: a conformer that declares one gives it another type, and no
/// longer compiles.
///
/// Not something to use: its only value is the one an endpoint's absent
/// misspelling returns.
public struct NotAnEndpointMember: Sendable {
    init() {}
}

// Each check below has two defaults: an available one while the misspelt
// member's type is `NotAnEndpointMember` (the endpoint has no such member),
// and an unavailable one otherwise, which the compiler reports with its
// message when it is the only default left.

extension Endpoint {
    /// Fails to compile: the endpoint declares a misspelt member.
    @_documentation(visibility: internal)
    @available(*, unavailable, message: "'timout' is not an Endpoint member and would be ignored: name it 'timeout'")
    public var _declaresNoTimout: Void { () }

    /// Fails to compile: the endpoint declares a misspelt member.
    @_documentation(visibility: internal)
    @available(*, unavailable, message: "'timeoutInterval' (Moya's) is not an Endpoint member and would be ignored: name it 'timeout'")
    public var _declaresNoTimeoutInterval: Void { () }

    /// Fails to compile: the endpoint declares a misspelt member.
    @_documentation(visibility: internal)
    @available(*, unavailable, message: "'acceptableStatuses' is not an Endpoint member and would be ignored: name it 'acceptableStatus'")
    public var _declaresNoAcceptableStatuses: Void { () }

    /// Fails to compile: the endpoint declares a misspelt member.
    @_documentation(visibility: internal)
    @available(*, unavailable, message: "'validationType' (Moya's) is not an Endpoint member and would be ignored: declare 'acceptableStatus' instead")
    public var _declaresNoValidationType: Void { () }

    /// Fails to compile: the endpoint declares a misspelt member.
    @_documentation(visibility: internal)
    @available(*, unavailable, message: "'header' is not an Endpoint member and would be ignored: name it 'headers'")
    public var _declaresNoHeader: Void { () }

    /// Fails to compile: the endpoint declares a misspelt member.
    @_documentation(visibility: internal)
    @available(*, unavailable, message: "'headerField' is not an Endpoint member and would be ignored: name it 'headers'")
    public var _declaresNoHeaderField: Void { () }
}

extension Endpoint where _Timout == NotAnEndpointMember {
    /// Not a member: a misspelling of ``timeout``.
    @_documentation(visibility: internal)
    public var timout: NotAnEndpointMember { NotAnEndpointMember() }

    /// Holds: the endpoint declares no such member.
    @_documentation(visibility: internal)
    public var _declaresNoTimout: Void { () }
}

extension Endpoint where _TimeoutInterval == NotAnEndpointMember {
    /// Not a member: Moya's spelling of ``timeout``.
    @_documentation(visibility: internal)
    public var timeoutInterval: NotAnEndpointMember { NotAnEndpointMember() }

    /// Holds: the endpoint declares no such member.
    @_documentation(visibility: internal)
    public var _declaresNoTimeoutInterval: Void { () }
}

extension Endpoint where _AcceptableStatuses == NotAnEndpointMember {
    /// Not a member: a misspelling of ``acceptableStatus``.
    @_documentation(visibility: internal)
    public var acceptableStatuses: NotAnEndpointMember { NotAnEndpointMember() }

    /// Holds: the endpoint declares no such member.
    @_documentation(visibility: internal)
    public var _declaresNoAcceptableStatuses: Void { () }
}

extension Endpoint where _ValidationType == NotAnEndpointMember {
    /// Not a member: Moya's counterpart of ``acceptableStatus``.
    @_documentation(visibility: internal)
    public var validationType: NotAnEndpointMember { NotAnEndpointMember() }

    /// Holds: the endpoint declares no such member.
    @_documentation(visibility: internal)
    public var _declaresNoValidationType: Void { () }
}

extension Endpoint where _Header == NotAnEndpointMember {
    /// Not a member: a misspelling of ``headers``.
    @_documentation(visibility: internal)
    public var header: NotAnEndpointMember { NotAnEndpointMember() }

    /// Holds: the endpoint declares no such member.
    @_documentation(visibility: internal)
    public var _declaresNoHeader: Void { () }
}

extension Endpoint where _HeaderField == NotAnEndpointMember {
    /// Not a member: a misspelling of ``headers``.
    @_documentation(visibility: internal)
    public var headerField: NotAnEndpointMember { NotAnEndpointMember() }

    /// Holds: the endpoint declares no such member.
    @_documentation(visibility: internal)
    public var _declaresNoHeaderField: Void { () }
}
