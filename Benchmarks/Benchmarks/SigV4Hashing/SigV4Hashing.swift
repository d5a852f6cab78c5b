// SigV4's payload hash (PayloadDigest.sha256 of a file body, read once in
// 1 MiB chunks) and the per-request cost of signing a head. Run with
// `swift package --package-path Benchmarks benchmark --target SigV4Hashing`.
// The file is BENCH_FILE_MIB MiB (1024 by default), the one compare.sh hashes.
import AWSSigning
import Benchmark
import BodyWorkloads
import Foundation
import HTTPBody
import HTTPTypes

let benchmarks: @Sendable () -> Void = {
    Benchmark.teardown = { BenchmarkInputs.removeAll() }

    Benchmark(
        "SHA-256 payload hash of a file body",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(30),
            maxIterations: 5
        )
    ) { benchmark in
        let body = try RequestBody.file(at: URL(filePath: BenchmarkInputs.largeFile))
        blackHole(try await PayloadDigest.sha256(of: body))
    } setup: {
        _ = BenchmarkInputs.largeFile
    }

    let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDBENCH", secretAccessKey: "secret"), region: "us-east-1")
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    Benchmark(
        "Sign a PUT head (header signing)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(5))
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var head = HTTPRequest(method: .put, scheme: "https", authority: "bucket.s3.amazonaws.com", path: "/photos/2024/cat%20on%20sofa.jpg?x-id=PutObject")
            head.headerFields = [.contentType: "image/jpeg", .contentLength: "1048576"]
            try signer.sign(&head, payloadHash: SigV4Signer.unsignedPayload, date: date)
            blackHole(head)
        }
    }
}
