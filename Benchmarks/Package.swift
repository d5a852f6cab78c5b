// swift-tools-version: 6.3
// Benchmarks for swift-http-body, kept in their own package so that `swift test`
// at the repository root never builds them (or fetches their dependencies).
//
//     Benchmarks/compare.sh                     # our figures beside the peers'
//     swift package --package-path Benchmarks benchmark   # ordo-one/benchmark suites
import PackageDescription

let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-http-body-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The repository root, through the symlink `swift-http-body -> ..`: SwiftPM
        // names a path dependency after its directory, and a clone's directory
        // may be called anything (even "benchmarks", which is this package's name).
        .package(path: "swift-http-body"),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The peer: multipart-kit's encoder, measured beside ours.
        .package(url: "https://github.com/vapor/multipart-kit.git", exact: "4.7.1"),
        // HTTPTypes for the SigV4 signing benchmark's heads (the root package's version).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The workloads, shared by the command-line drivers and the benchmark suites.
        .target(
            name: "BodyWorkloads",
            dependencies: [.product(name: "HTTPBody", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "KitWorkloads",
            dependencies: [.product(name: "MultipartKit", package: "multipart-kit")],
            swiftSettings: sharedSwiftSettings
        ),

        // Command-line drivers that compare.sh times one process at a time.
        .executableTarget(name: "body-bench", dependencies: ["BodyWorkloads"], swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "multipartkit-peer", dependencies: ["KitWorkloads"], swiftSettings: sharedSwiftSettings),
        // SigV4 payload hashing (issue #14): PayloadDigest.sha256 of a file, beside openssl.
        .executableTarget(
            name: "sigv4-bench",
            dependencies: [
                .product(name: "AWSSigning", package: "swift-http-body"),
                .product(name: "HTTPBody", package: "swift-http-body"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // ordo-one/benchmark suites (`swift package benchmark`).
        .executableTarget(
            name: "MultipartEncoding",
            dependencies: ["BodyWorkloads", "KitWorkloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/MultipartEncoding",
            swiftSettings: sharedSwiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SigV4Hashing",
            dependencies: [
                "BodyWorkloads",
                .product(name: "AWSSigning", package: "swift-http-body"),
                .product(name: "HTTPBody", package: "swift-http-body"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SigV4Hashing",
            swiftSettings: sharedSwiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "MediaTypeSniffing",
            dependencies: ["BodyWorkloads", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/MediaTypeSniffing",
            swiftSettings: sharedSwiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
