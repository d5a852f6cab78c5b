extension RequestError {
    /// A redirect that cannot be followed, naming the request it answered.
    static func redirect(_ request: PreparedRequest, _ what: String) -> RequestError {
        RequestError(code: .redirect, description: "\(request.describedTarget): \(what)")
    }
}
