import Foundation

/// Inputs for the benchmark suites, generated on first use in one temporary
/// directory that ``removeAll()`` deletes.
///
/// Sizes come from the environment so a quick run can use smaller files:
/// `BENCH_FILE_MIB` (the file part, 1024 by default), `BENCH_GZIP_MIB` (the
/// text file for gzip, 256), `BENCH_MIXED_MIB` (the mixed upload, 128),
/// `BENCH_SNIFF_FILES` (10,000).
public enum BenchmarkInputs {
    /// The directory every input lives in.
    public static let directory: String = {
        let path = FileManager.default.temporaryDirectory.appending(path: "http-body-bench-\(getpid())").path(percentEncoded: false)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    private static func size(_ variable: String, default value: Int) -> Int {
        ProcessInfo.processInfo.environment[variable].flatMap(Int.init) ?? value
    }

    /// A file of prose, `BENCH_FILE_MIB` MiB.
    public static let largeFile: String = {
        let path = directory + "/large.txt"
        try? InputGenerator.writeTextFile(at: path, size: size("BENCH_FILE_MIB", default: 1024) * 1_048_576)
        return path
    }()

    /// A file of prose for the gzip benchmark, `BENCH_GZIP_MIB` MiB.
    public static let textFile: String = {
        let path = directory + "/gzip.txt"
        try? InputGenerator.writeTextFile(at: path, size: size("BENCH_GZIP_MIB", default: 256) * 1_048_576, seed: 4)
        return path
    }()

    /// The files of the mixed upload, `BENCH_MIXED_MIB` MiB in all.
    public static let mixedFiles: [String] = {
        let path = directory + "/mixed"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (try? InputGenerator.writeMixedUpload(in: path, totalSize: size("BENCH_MIXED_MIB", default: 128) * 1_048_576)) ?? []
    }()

    /// The small files to sniff, `BENCH_SNIFF_FILES` of them.
    public static let sniffingFiles: [String] = {
        let path = directory + "/sniff"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (try? InputGenerator.writeSniffingSet(in: path, count: size("BENCH_SNIFF_FILES", default: 10_000))) ?? []
    }()

    /// Deletes every generated input.
    public static func removeAll() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
