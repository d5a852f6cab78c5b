import Foundation
import FuzzSupport
@testable import RequestBuilder

/// Feeds `Retry-After` values, as a server sends them with a 429 or 503, to
/// `RetryMiddleware.retryAfter(_:now:)` and the HTTP date reader under it.
///
/// Invariants: nothing traps; a delay is never negative; a date that
/// parses, written back as an IMF-fixdate, parses to the same instant; a
/// delay read from a date is the time from `now` to it, or zero when it is past
/// (written back and compared with a calendar computed here, not the reader's).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRetryAfter(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    // "now" anywhere from 1970 to about 2106, so two-digit years fall both ways.
    let seconds = (0..<4).reduce(UInt32(0)) { value, _ in value << 8 | UInt32(input.byte()) }
    let now = Date(timeIntervalSince1970: TimeInterval(seconds))
    let text = input.rest()
    if let delay = RetryMiddleware.retryAfter(text, now: now) {
        fuzzCheck(delay >= .zero, "Retry-After \(text.debugDescription) gives \(delay)")
    }
    // Beyond about 31 million years a Double no longer holds every second.
    guard let date = HTTPDate.parse(text, now: now), abs(date.timeIntervalSince1970) < 1e15 else { return 0 }
    let written = imfFixdate(date)
    fuzzCheck(HTTPDate.parse(written, now: now) == date, "\(text.debugDescription) reads as \(date), but \(written) does not read back to it")
    if let delay = RetryMiddleware.retryAfter(text, now: now) {
        // A date is never a whole number, so the delay is read from it (capped at a million years).
        let expected = min(max(0, date.timeIntervalSince(now)), 31_557_600_000_000)
        let measured = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        fuzzCheck(abs(measured - expected) < 1, "Retry-After \(text.debugDescription) at \(now) gives \(delay), not \(expected) s")
    }
    return 0
}

/// `date` as RFC 9110's IMF-fixdate, computed here independently of the reader.
private func imfFixdate(_ date: Date) -> String {
    let total = Int64(date.timeIntervalSince1970.rounded(.down))
    var days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secondOfDay = total - days * 86_400
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int(((days % 7) + 7) % 7)]
    // Howard Hinnant's days-to-civil.
    days += 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let dayOfEra = days - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
    return "\(weekday), \(two(day)) \(months[Int(month) - 1]) \(yearText) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzRetryAfter_main")
public func fuzzRetryAfterMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzRetryAfter)
}
