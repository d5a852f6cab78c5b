import RequestBuilder

extension Duration {
    /// A retry's wait as a person reads it, to a tenth of a second: `1.3
    /// seconds`, `2 seconds`. Jittered waits are fractions with 18 digits
    /// (`1.312849502938475629 seconds`), precision no one waits by.
    var waitDescription: String {
        let tenths = max(1, Int64((inSeconds * 10).rounded()))
        let whole = tenths / 10, fraction = tenths % 10
        if fraction != 0 { return "\(whole).\(fraction) seconds" }
        return whole == 1 ? "1 second" : "\(whole) seconds"
    }
}
