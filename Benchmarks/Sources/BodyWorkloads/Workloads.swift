import Foundation
public import HTTPBody

/// The measured operations, each a plain function so the command-line driver
/// and the benchmark suites run exactly the same code.
public enum Workloads {
    /// A fixed boundary, for reproducible output; with one, file contents are
    /// scanned for it as they stream, which a random boundary (the default,
    /// and what the uploader uses) makes unnecessary.
    static func fixedBoundary() throws -> MultipartBoundary {
        try MultipartBoundary.constant("benchmark-boundary-7MA4YWxkTrZu0gW")
    }

    /// Streams a body's chunks into `sink`; returns the byte count.
    @discardableResult
    public static func drain(_ body: RequestBody, into sink: OutputSink) async throws -> Int64 {
        var total: Int64 = 0
        for try await chunk in body.chunks() {
            try sink.write(chunk)
            total += Int64(chunk.count)
        }
        return total
    }

    /// A multipart body of the files at `paths` (one file part each, types
    /// sniffed, a random boundary as by default), gzip-compressed at
    /// `gzipLevel` when it is given, `gzipConcurrency` blocks at once (the
    /// default when `nil`); with `fixedBoundary`, a caller-chosen boundary that
    /// the contents are scanned for as they stream.
    public static func multipartBody(
        files paths: [String], gzipLevel: Int? = nil, gzipConcurrency: Int? = nil, fixedBoundary: Bool = false
    ) throws -> RequestBody {
        var form = MultipartFormData(boundary: fixedBoundary ? try Self.fixedBoundary() : .random())
        for (index, path) in paths.enumerated() {
            try form.appendFile(at: URL(filePath: path), name: "file\(index)")
        }
        let body = try RequestBody.multipart(form)
        guard let gzipLevel else { return body }
        return body.gzipped(GzipOptions(level: gzipLevel, concurrency: gzipConcurrency ?? GzipOptions.defaultConcurrency))
    }

    /// A multipart body of `count` small text fields (`field0=value 0`, ...).
    public static func fieldsBody(count: Int) throws -> RequestBody {
        var form = MultipartFormData(boundary: try fixedBoundary())
        for index in 0..<count {
            form.append("value \(index)", name: "field\(index)")
        }
        return try RequestBody.multipart(form)
    }

    /// The standard sniffer's type for each file, in order, sniffing up to
    /// `concurrency` files at once.
    public static func sniff(_ paths: [String], concurrency: Int) async throws -> [String] {
        let lanes = max(1, min(concurrency, paths.count))
        let laneResults = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    var answers: [String] = []
                    var index = lane
                    while index < paths.count {
                        let type = try StandardMediaTypeSniffer.standard.mediaType(ofFileAt: URL(filePath: paths[index]))
                        answers.append(type.map { "\($0.type)/\($0.subtype)" } ?? "unknown")
                        index += lanes
                    }
                    return (lane, answers)
                }
            }
            var results = [[String]](repeating: [], count: lanes)
            for try await (lane, answers) in group { results[lane] = answers }
            return results
        }
        return (0..<paths.count).map { laneResults[$0 % lanes][$0 / lanes] }
    }
}

extension Workloads {
    /// How many of the files at `paths` each stage of the standard sniffer
    /// named, cheapest stage first, as `stage<TAB>count` lines (every stage,
    /// counts of 0 included), from each file's first
    /// ``MediaTypeSample/preferredLength`` bytes as the sniffer reads them.
    public static func sniffingStages(_ paths: [String], each: Bool = false) throws -> [String] {
        var counts: [StandardMediaTypeSniffer.Stage: Int] = [:]
        var lines: [String] = []
        for path in paths {
            let handle = try FileHandle(forReadingFrom: URL(filePath: path))
            defer { try? handle.close() }
            let prefix = try handle.read(upToCount: MediaTypeSample.preferredLength) ?? Data()
            let isComplete = try handle.read(upToCount: 1)?.isEmpty ?? true
            let sample = MediaTypeSample(prefix: prefix, filename: path, isComplete: isComplete)
            let answer = StandardMediaTypeSniffer().answer(for: sample)
            counts[answer.stage, default: 0] += 1
            if each { lines.append("\(answer.stage.rawValue)\t\(answer.mediaType?.description ?? "-")\t\(path)") }
        }
        if each { return lines }
        return StandardMediaTypeSniffer.Stage.allCases.map { "\($0.rawValue)\t\(counts[$0] ?? 0)" }
    }
}
