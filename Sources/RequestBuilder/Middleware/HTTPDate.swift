import Foundation

/// Parses the three date formats HTTP allows (RFC 9110 §5.6.7): IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
///
/// By hand rather than with `DateFormatter`, which on Linux lives in the full
/// Foundation: one use links all of it, with ICU, into every program (see
/// `ConditionLock` in HTTPBody). Names of days and months are read without
/// regard to case; the day of the week is not checked against the date.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let fields = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        switch fields.count {
        case 6:  // IMF-fixdate: day, dd mon yyyy hh:mm:ss gmt
            guard fields[0].hasSuffix(","), days.contains(String(fields[0].dropLast())), fields[5] == "gmt",
                fields[1].count == 2, let year = number(fields[3]), fields[3].count >= 4
            else { return nil }
            return date(year: year, month: fields[2], day: fields[1], time: fields[4])
        case 4:  // RFC 850: weekday, dd-mon-yy hh:mm:ss gmt
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard fields[0].hasSuffix(","), longDays.contains(String(fields[0].dropLast())), fields[3] == "gmt",
                parts.count == 3, parts[0].count == 2, parts[2].count == 2, let shortYear = number(parts[2])
            else { return nil }
            return date(year: fullYear(shortYear, now: now), month: parts[1], day: parts[0], time: fields[2])
        case 5:  // asctime: day mon d hh:mm:ss yyyy
            guard days.contains(String(fields[0])), (1...2).contains(fields[2].count),
                let year = number(fields[4]), fields[4].count == 4
            else { return nil }
            return date(year: year, month: fields[1], day: fields[2], time: fields[3])
        default:
            return nil
        }
    }

    /// RFC 9110: a two-digit year more than 50 years in the future is the
    /// most recent past year with the same last two digits.
    private static func fullYear(_ shortYear: Int64, now: Date) -> Int64 {
        let thisYear = 1970 + Int64((now.timeIntervalSince1970 / 31_556_952).rounded(.down))
        var year = thisYear - thisYear % 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return year
    }

    private static func date(year: Int64, month: Substring, day: Substring, time: Substring) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let monthIndex = months.firstIndex(of: String(month)), let day = number(day),
            clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
            hour < 24, minute < 60, second <= 60,
            day >= 1, day <= daysIn(month: monthIndex + 1, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: Int64(monthIndex + 1), day: day)
        let (seconds, overflow) = days.multipliedReportingOverflow(by: 86_400)
        guard !overflow else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(hour * 3600 + minute * 60 + second))
    }

    private static func number(_ digits: Substring) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }

    static func daysIn(month: Int, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
