import Foundation

/// The date of a cookie's `Expires` attribute, read as RFC 6265 section
/// 5.1.1 says: tokens between delimiters, the first that looks like a time,
/// a day, a month and a year taken in any order, so every form servers send
/// (`Wed, 09 Jun 2021 10:18:14 GMT`, `Wednesday, 09-Jun-21 10:18:14 GMT`,
/// `Wed Jun  9 10:18:14 2021`) is understood.
enum CookieDate {
    /// The latest expiry kept: the end of 9999, the last year a cookie date
    /// can name. Later expiries (a huge `Max-Age`) are held to it.
    static let latestSeconds: Double = 253_402_300_799

    /// `seconds` since 1970, whole, within the years a cookie date can name.
    static func clampedSeconds(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds > 0 ? latestSeconds : 0 }
        return min(max(seconds.rounded(.down), -latestSeconds), latestSeconds)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it names none (the attribute is then ignored).
    static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let bytes = Array(token)
            if time == nil, let found = timeOfDay(bytes) {
                time = found
            } else if day == nil, let found = leadingNumber(bytes, digits: 1...2) {
                day = found
            } else if month == nil, bytes.count >= 3,
                      let index = months.firstIndex(where: { Array($0.utf8) == bytes.prefix(3).map(lowercased) }) {
                month = index + 1
            } else if year == nil, let found = leadingNumber(bytes, digits: 2...4) {
                year = found
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, hour <= 23, minute <= 59, second <= 59, day >= 1,
              Int64(day) <= HTTPDate.daysIn(month: month, year: Int64(year))
        else { return nil }
        let days = HTTPDate.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day))
        return Date(timeIntervalSince1970: Double(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)))
    }

    /// RFC 6265's delimiter: tab, and every printable character but
    /// digits, letters and `:`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT`, then anything that does not start with a digit.
    private static func timeOfDay(_ bytes: [UInt8]) -> (Int, Int, Int)? {
        var values: [Int] = []
        var index = 0
        for field in 0..<3 {
            let start = index
            while index < bytes.count, index - start < 2, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            values.append(bytes[start..<index].reduce(0) { $0 * 10 + Int($1 - 0x30) })
            if field < 2 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
            }
        }
        guard index == bytes.count || !isDigit(bytes[index]) else { return nil }
        return (values[0], values[1], values[2])
    }

    /// A number of `digits` digits at the start, then anything that does not start with a digit.
    private static func leadingNumber(_ bytes: [UInt8], digits: ClosedRange<Int>) -> Int? {
        let count = bytes.prefix(while: isDigit).count
        guard digits.contains(count) else { return nil }
        return bytes.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
