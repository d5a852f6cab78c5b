/// A flag that one caller claims, for a thing said once however many
/// requests share the middleware that says it (copies of a middleware
/// share their flag).
final actor OnceFlag {
    private var claimed = false

    /// `true` for the first caller only.
    func claim() -> Bool {
        defer { claimed = true }
        return !claimed
    }
}
