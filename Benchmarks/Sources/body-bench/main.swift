// Our side of compare.sh: each command runs one workload in this process and
// writes its output to standard output (compare.sh sends it to /dev/null or
// counts it), so wall time and peak RSS can be taken per process.
//
//     body-bench generate text PATH MIB        a file of prose
//     body-bench generate elf PATH MIB         an ELF header on random bytes (only libmagic can type it)
//     body-bench generate mixed DIR MIB        half compressed files, half text (paths out)
//     body-bench generate sniff DIR COUNT      small files of fifteen kinds (paths out)
//     body-bench files LIST [--gzip [--gzip-concurrency N]]
//                                              a multipart body of the files listed
//     body-bench fields COUNT                  a multipart body of COUNT text fields
//     body-bench sniff LIST [--jobs N]         the sniffed type of each file listed
//     body-bench stages LIST [--each]          how many files each sniffing stage named
//                                              (--each: each file's stage, type and path)
import BodyWorkloads
import Foundation

let usage = """
    usage: body-bench generate text PATH MIB | generate elf PATH MIB | generate mixed DIR MIB | generate sniff DIR COUNT
           body-bench files LIST [--gzip [--gzip-concurrency N]] | fields COUNT | sniff LIST [--jobs N] | stages LIST [--each]

    """

/// The paths listed one per line in the file at `path`.
func readList(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
}

/// Removes `option NUMBER` from `arguments` and returns the number, if both are there.
func takeNumber(after option: String, from arguments: inout [String]) -> Int? {
    guard let flag = arguments.firstIndex(of: option), flag + 1 < arguments.count, let value = Int(arguments[flag + 1]) else { return nil }
    arguments.removeSubrange(flag...(flag + 1))
    return value
}

func printLines(_ lines: [String]) throws {
    try OutputSink.standardOutput.write(Array((lines.joined(separator: "\n") + "\n").utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
let gzip = arguments.contains("--gzip")
let each = arguments.contains("--each")
arguments.removeAll { $0 == "--gzip" || $0 == "--each" }
let jobs = takeNumber(after: "--jobs", from: &arguments) ?? ProcessInfo.processInfo.activeProcessorCount
let gzipConcurrency = takeNumber(after: "--gzip-concurrency", from: &arguments)

do {
    switch (arguments.first, arguments.count) {
    case ("generate", 4):
        guard let amount = Int(arguments[3]) else { throw WorkloadError(usage) }
        switch arguments[1] {
        case "text": try InputGenerator.writeTextFile(at: arguments[2], size: amount * 1_048_576)
        case "elf": try InputGenerator.writeExecutableFile(at: arguments[2], size: amount * 1_048_576)
        case "mixed": try printLines(InputGenerator.writeMixedUpload(in: arguments[2], totalSize: amount * 1_048_576))
        case "sniff": try printLines(InputGenerator.writeSniffingSet(in: arguments[2], count: amount))
        default: throw WorkloadError(usage)
        }
    case ("files", 2):
        let body = try Workloads.multipartBody(files: readList(arguments[1]), gzipLevel: gzip ? 6 : nil, gzipConcurrency: gzipConcurrency)
        try await Workloads.drain(body, into: .standardOutput)
    case ("fields", 2):
        guard let count = Int(arguments[1]) else { throw WorkloadError(usage) }
        try await Workloads.drain(Workloads.fieldsBody(count: count), into: .standardOutput)
    case ("stages", 2):
        try printLines(Workloads.sniffingStages(readList(arguments[1]), each: each))
    case ("sniff", 2):
        try printLines(await Workloads.sniff(readList(arguments[1]), concurrency: jobs))
    default:
        throw WorkloadError(usage)
    }
} catch {
    FileHandle.standardError.write(Data("body-bench: \(error)\n".utf8))
    exit(1)
}
