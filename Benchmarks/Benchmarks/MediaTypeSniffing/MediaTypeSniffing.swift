// Sniffing 10,000 small files of fifteen kinds with the standard sniffer
// (signature table, then libmagic, then the extension), on one task and on
// one task per core. Run with
// `swift package --package-path Benchmarks benchmark --target MediaTypeSniffing`.
import Benchmark
import BodyWorkloads
import Foundation

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 10
    )
    Benchmark.teardown = { BenchmarkInputs.removeAll() }

    Benchmark("Sniff 10,000 files, one task", configuration: configuration) { _ in
        blackHole(try await Workloads.sniff(BenchmarkInputs.sniffingFiles, concurrency: 1))
    } setup: {
        _ = BenchmarkInputs.sniffingFiles
    }

    Benchmark("Sniff 10,000 files, a task per core", configuration: configuration) { _ in
        blackHole(try await Workloads.sniff(BenchmarkInputs.sniffingFiles, concurrency: ProcessInfo.processInfo.activeProcessorCount))
    } setup: {
        _ = BenchmarkInputs.sniffingFiles
    }
}
