import Foundation

/// Where the process's memory is at one stage of the upload, from the
/// kernel's own accounting (`/proc/self/smaps_rollup` and `/proc/self/status`),
/// written to standard error when `UPLOAD_MEMORY` is set; Linux only.
///
/// Resident memory splits into anonymous pages (heap, thread stacks, buffers)
/// and file pages (the executable, shared libraries, libmagic's mapped
/// database); `VmHWM` is the peak so far, the figure `/usr/bin/time` reports.
enum MemoryReport {
    static let isEnabled = ProcessInfo.processInfo.environment["UPLOAD_MEMORY"] != nil

    static func note(_ stage: String) {
        guard isEnabled else { return }
        let rollup = fields(in: "/proc/self/smaps_rollup", ["Rss", "Anonymous", "Pss_File"])
        let status = fields(in: "/proc/self/status", ["VmHWM", "Threads"])
        let line = "\(stage): rss \(rollup[0]) KiB (anonymous \(rollup[1]), file \(rollup[2])), peak \(status[0]) KiB, \(status[1]) threads\n"
        writeError(line)
    }

    /// The first number after each `name:` in the file, in the order asked; "?" when missing.
    private static func fields(in path: String, _ names: [String]) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n")
        return names.map { name in
            guard let line = lines.first(where: { $0.hasPrefix(name + ":") }) else { return "?" }
            return line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "?"
        }
    }
}
