#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPBody
import RequestBuilder

/// A one-line progress bar on standard error: bytes sent, total, rate and
/// time left, redrawn in place at most ten times a second so that a long
/// upload never looks hung. A body of several files (a directory upload)
/// also shows how many of them are sent: one bar for the whole transfer.
final class ProgressBar: @unchecked Sendable {
    // @unchecked Sendable: progress reports arrive from the transport's
    // threads; every access to the mutable state below goes through `lock`.
    private let lock = ConditionLock()
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var lastLine = ""
    private var finished = false
    private let write: @Sendable (String) -> Void
    /// Where each file's content ends in the body (``RequestBody/fileEnds``),
    /// ascending; counted only when there are two or more.
    private let fileEnds: [Int64]

    /// Creates a bar that draws with `write` (standard error by default);
    /// `fileEnds` are where the body's files end, for a count of files sent.
    init(fileEnds: [Int64] = [], write: @escaping @Sendable (String) -> Void = { try? OutputFile.standardError.write(Array($0.utf8)) }) {
        self.fileEnds = fileEnds.count > 1 ? fileEnds : []
        self.write = write
    }

    /// How many files end at or before `sent` bytes (a binary search).
    private func filesSent(by sent: Int64) -> Int {
        var low = 0
        var high = fileEnds.count
        while low < high {
            let middle = (low + high) / 2
            if fileEnds[middle] <= sent { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Records progress; redraws when enough time has passed or the upload
    /// is complete. `label` goes before the bar (a recursive upload's
    /// `12/1,008 files`).
    func update(sent: Int64, total: Int64?, label: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        let now = ContinuousClock.now
        let isComplete = total.map { sent >= $0 } ?? false
        if let lastDraw, now - lastDraw < .milliseconds(100), !isComplete { return }
        lastDraw = now
        let files: (done: Int, total: Int)? = fileEnds.isEmpty ? nil : (filesSent(by: sent), fileEnds.count)
        let columns = Self.terminalColumns()
        let line = Self.fitted((label.map { $0 + " " } ?? "") + Self.render(sent: sent, total: total, elapsed: now - start, files: files, columns: columns), to: columns)
        if lastLine.isEmpty { TerminalLine.drawing(self) }
        write("\r" + line + "\u{1B}[K")
        lastLine = line
    }

    /// Erases the bar's line, so a message can take it; the next update draws the bar again.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        guard !lastLine.isEmpty else { return }
        write("\r\u{1B}[K")
        lastLine = ""
        lastDraw = nil
    }

    /// Ends the bar's line so later output starts on a fresh one.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        finished = true
        TerminalLine.drawing(nil)
        if !lastLine.isEmpty { write("\n") }
    }

    /// The width of the terminal standard error is, if it is one.
    static func terminalColumns() -> Int? {
        var size = winsize()
        let asked = withUnsafeMutablePointer(to: &size) { ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), $0) }
        return asked == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
    }

    /// `line` cut to one column less than the terminal's width, so drawing
    /// it never wraps onto a second row (which `\r` could not take back).
    static func fitted(_ line: String, to columns: Int?) -> String {
        guard let columns, line.count >= columns else { return line }
        return String(line.prefix(max(0, columns - 1)))
    }

    /// The text of one frame, such as
    /// ` 42% [########            ] 430.1 MiB / 1.00 GiB  310.2 MiB/s  eta 2s`,
    /// or with `files`, ` 42% [########            ] 1270/3000 files  430.1 MiB / …`.
    ///
    /// Within `columns` (less one, so the line never wraps) the frame keeps
    /// a bar of at least ``minimumBarWidth``: it drops the rate, then the
    /// file count, then the total, before it narrows the bar, and the
    /// percentage and the time left are dropped last.
    static func render(sent: Int64, total: Int64?, elapsed: Duration, files: (done: Int, total: Int)? = nil, columns: Int? = nil) -> String {
        let seconds = elapsed.inSeconds
        let rate = seconds > 0 ? Double(sent) / seconds : 0
        let rateText = "\(formatBytes(Int64(rate)))/s"
        let filesText = files.map { "\($0.done)/\($0.total) files" }
        guard let total, let completed = UploadProgress(bytesSent: sent, totalBytes: total).fractionCompleted else {
            return [filesText, "\(formatBytes(sent)) sent", rateText].compactMap { $0 }.joined(separator: "  ")
        }
        let fraction = min(1, completed)
        let percent = String(Int(fraction * 100)).leftPadded(to: 3) + "%"
        let time: String? =
            if sent < total, rate > 0 { "eta \(formatDuration(Double(total - sent) / rate))" }
            else if sent >= total { formatDuration(seconds) }
            else { nil }
        let amount = "\(formatBytes(sent)) / \(formatBytes(total))"
        // From the fullest frame to the barest: the first that leaves the
        // bar its minimum width is drawn.
        let choices: [[String?]] = [
            [filesText, amount, rateText, time],
            [filesText, amount, time],
            [amount, time],
            [formatBytes(sent), time],
            [time],
        ]
        let available = columns.map { $0 - 1 } ?? Int.max
        var drawn = ""
        for fields in choices {
            let text = fields.compactMap { $0 }.joined(separator: "  ")
            let rest = (text.isEmpty ? 0 : 1 + text.count) + percent.count + 3  // " [" and "]"
            let width = min(maximumBarWidth, available - rest)
            drawn = frame(percent: percent, fraction: fraction, width: max(0, width), text: text)
            if width >= minimumBarWidth { break }
        }
        return drawn
    }

    /// The bar's width on a wide terminal, and the least it is drawn with
    /// while fields around it can be left out instead.
    static let maximumBarWidth = 20
    static let minimumBarWidth = 10

    private static func frame(percent: String, fraction: Double, width: Int, text: String) -> String {
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        return "\(percent) [\(bar)]" + (text.isEmpty ? "" : " " + text)
    }

    /// Bytes in binary units: `512 B`, `1.5 KiB`, `430.1 MiB`, `1.00 GiB`.
    static func formatBytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let digits = value < 10 ? 2 : 1
        return "\(value.fixedPoint(digits: digits)) \(units[unit])"
    }

    /// A duration as `4s`, `2m05s` or `1h02m`.
    static func formatDuration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(twoDigits(whole % 60))s" }
        return "\(whole / 3600)h\(twoDigits((whole % 3600) / 60))m"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
