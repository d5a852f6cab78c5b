// Multipart encoding: a large file part, the same with gzip, a mixed upload
// with gzip, and 100,000 small fields (ours beside multipart-kit's encoder).
// Run with `swift package --package-path Benchmarks benchmark --target MultipartEncoding`.
import Benchmark
import BodyWorkloads
import KitWorkloads

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 5
    )
    Benchmark.teardown = { BenchmarkInputs.removeAll() }

    Benchmark("File part to a null sink", configuration: configuration) { benchmark in
        let body = try Workloads.multipartBody(files: [BenchmarkInputs.largeFile])
        benchmark.startMeasurement()
        blackHole(try await Workloads.drain(body, into: .discard))
    } setup: {
        _ = BenchmarkInputs.largeFile
    }

    Benchmark("Text file part, gzip level 6", configuration: configuration) { benchmark in
        let body = try Workloads.multipartBody(files: [BenchmarkInputs.textFile], gzipLevel: 6)
        benchmark.startMeasurement()
        blackHole(try await Workloads.drain(body, into: .discard))
    } setup: {
        _ = BenchmarkInputs.textFile
    }

    Benchmark("Mixed upload, gzip level 6", configuration: configuration) { benchmark in
        let body = try Workloads.multipartBody(files: BenchmarkInputs.mixedFiles, gzipLevel: 6)
        benchmark.startMeasurement()
        blackHole(try await Workloads.drain(body, into: .discard))
    } setup: {
        _ = BenchmarkInputs.mixedFiles
    }

    Benchmark("100,000 fields, HTTPBody", configuration: configuration) { _ in
        blackHole(try await Workloads.drain(Workloads.fieldsBody(count: 100_000), into: .discard))
    }

    Benchmark("100,000 fields, multipart-kit", configuration: configuration) { _ in
        blackHole(try KitWorkloads.encode(KitWorkloads.fields(count: 100_000)))
    }
}
