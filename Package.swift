// swift-tools-version: 6.1
import PackageDescription

/// Settings every target shares: Swift 6 mode with the stricter upcoming features
/// the house style asks for (see ../shared/style.md, practice 11).
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// OpenCombine where Combine is missing; Apple platforms use Combine itself.
let openCombineOffApplePlatforms: Target.Dependency = .product(
    name: "OpenCombine",
    package: "OpenCombine",
    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])
)

/// OpenCombine's schedulers for dispatch queues (`DispatchQueue.main.ocombine`),
/// which Combine has built in; for publishers that deliver on a queue.
let openCombineDispatchOffApplePlatforms: Target.Dependency = .product(
    name: "OpenCombineDispatch",
    package: "OpenCombine",
    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])
)

let package = Package(
    name: "swift-http-body",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "HTTPBody", targets: ["HTTPBody"]),
        .library(name: "RequestBuilder", targets: ["RequestBuilder"]),
        .library(name: "RequestBuilderURLSession", targets: ["RequestBuilderURLSession"]),
        .library(name: "RequestBuilderAsyncHTTPClient", targets: ["RequestBuilderAsyncHTTPClient"]),
        .library(name: "ResumableUploads", targets: ["ResumableUploads"]),
        .library(name: "AWSSigning", targets: ["AWSSigning"]),
        .library(name: "ObjectStorage", targets: ["ObjectStorage"]),
        .library(name: "RequestBuilderCombine", targets: ["RequestBuilderCombine"]),
        .library(name: "HTTPBodyGoldenFiles", targets: ["HTTPBodyGoldenFiles"]),
        .library(name: "HTTPBodyTesting", targets: ["HTTPBodyTesting"]),
        .library(name: "RequestBuilderTesting", targets: ["RequestBuilderTesting"]),
        .executable(name: "uploader", targets: ["uploader"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // FilePath: paths as the file system has them, bytes that need not be UTF-8.
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // TLS trust roots and client certificates for AsyncHTTPClientTransport
        // (already in the graph through AsyncHTTPClient).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.36.0"),
        // HTTP/2 streams' request parts, where the transport sends a body
        // without waiting for 100 Continue (already in the graph through AsyncHTTPClient).
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // Digests: tus's checksum extension (SHA-1, SHA-256, MD5).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // Combine where Apple has none; only RequestBuilderCombine and its tests depend on it.
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        // Test-only: an independent multipart parser that checks every encoded body.
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        // Test-only: property-based tests (generators with shrinking) for Swift Testing.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // Documentation only: `swift package generate-documentation` (Scripts/docs.sh). A
        // command plugin, so plain builds and tests never compile it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Test-only: NIOResumableUpload, the IETF resumable-upload server of issue #13's
        // tests (already in the graph through AsyncHTTPClient); no library target uses it.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // MARK: System libraries

        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // libdeflate (Linux only, see the HTTPBody target): a body's blocks
        // deflated at about twice zlib's speed; zlib stays for inflating and
        // for deflating where libdeflate is not linked.
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .systemLibrary(
            name: "CMagic",
            pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"]), .brew(["libmagic"])]
        ),

        // CRC-32 by carry-less multiplication (x86-64's PCLMULQDQ, and VPCLMULQDQ
        // where there is one), 3-8x zlib's speed: S3's x-amz-checksum-crc32 of
        // every part, and gzip's trailer.
        .target(name: "CCRC32"),

        // A raw deflate stream's final block found without inflating it, so
        // libdeflate's independently compressed blocks join into one stream.
        .target(name: "CDeflateWalk"),

        // MARK: Libraries

        .target(
            name: "HTTPBody",
            dependencies: [
                "CZlib",
                "CMagic",
                "CCRC32",
                .target(name: "CLibDeflate", condition: .when(platforms: [.linux])),
                .target(name: "CDeflateWalk", condition: .when(platforms: [.linux])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "RequestBuilder",
            dependencies: [
                "HTTPBody",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // URLSession and URLRequest (FoundationNetworking on Linux, which pulls in
        // libcurl and its TLS stack) in a target of their own, so tools that send
        // with AsyncHTTPClient, like uploader, neither link nor load them.
        .target(
            name: "RequestBuilderURLSession",
            dependencies: [
                "HTTPBody",
                "RequestBuilder",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .target(
            name: "RequestBuilderAsyncHTTPClient",
            dependencies: [
                "HTTPBody",
                "RequestBuilder",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Resumable uploads (the IETF draft and tus 1.0) on top of the
        // request builder: any transport sends their steps.
        .target(
            name: "ResumableUploads",
            dependencies: [
                "HTTPBody",
                "RequestBuilder",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // AWS Signature Version 4 (issue #14) as request middleware: header and
        // query signing, payload hashing and the aws-chunked streaming encoding,
        // on swift-crypto for SHA-256 and HMAC.
        .target(
            name: "AWSSigning",
            dependencies: [
                "HTTPBody",
                "RequestBuilder",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // S3 and S3-compatible stores: single PUTs, parallel multipart uploads
        // with resume, POST policies and presigned forms (issue #14).
        .target(
            name: "ObjectStorage",
            dependencies: [
                "AWSSigning",
                "HTTPBody",
                "RequestBuilder",
                "ResumableUploads",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // Publishers for users of Combine (OpenCombine off Apple platforms),
        // in a target of their own so nobody else builds OpenCombine.
        .target(
            name: "RequestBuilderCombine",
            dependencies: ["RequestBuilder", openCombineOffApplePlatforms],
            swiftSettings: sharedSwiftSettings
        ),

        // Golden files without a test framework: GoldenFile compares a request's
        // or a body's exact bytes with a file and returns the diff, so a tool
        // that is not a test (a CI check, a sample) links neither XCTest nor
        // Testing. Only HTTPBody, because a PreparedRequest gives its bytes as
        // HTTPBody's RawHTTPRequest (`raw()`), so users of HTTPBody alone do
        // not build RequestBuilder.
        .target(
            name: "HTTPBodyGoldenFiles",
            dependencies: ["HTTPBody"],
            swiftSettings: sharedSwiftSettings
        ),
        // Golden-file tests for users' test targets (and ours): expectGolden,
        // which reports to Swift Testing or XCTest, and GoldenFile re-exported.
        .target(
            name: "HTTPBodyTesting",
            dependencies: ["HTTPBody", "HTTPBodyGoldenFiles"],
            swiftSettings: sharedSwiftSettings
        ),

        // A transport for tests that answers from a script (StubTransport): test
        // tooling, kept out of the RequestBuilder product that apps ship.
        .target(
            name: "RequestBuilderTesting",
            dependencies: ["RequestBuilder", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: sharedSwiftSettings
        ),

        // MARK: Command-line tool

        // The CLI's pure request-item parsing, a library so the fuzz targets can link it.
        .target(name: "UploaderItems", swiftSettings: sharedSwiftSettings),
        .executableTarget(
            name: "uploader",
            dependencies: [
                "UploaderItems",
                "HTTPBody",
                "RequestBuilder",
                "RequestBuilderAsyncHTTPClient",
                "ResumableUploads",
                "AWSSigning",
                "ObjectStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // SHA-256: resume states are named and matched by a digest of the command.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: sharedSwiftSettings
        ),

        // MARK: Samples (each runs with `swift run NAME`)

        .executableTarget(name: "posts-api", dependencies: ["RequestBuilder", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Samples/PostsAPI", swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "posts-api-enum", dependencies: ["RequestBuilder", "RequestBuilderTesting", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Samples/PostsAPIEnum", swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "builder-tour", dependencies: ["RequestBuilder", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")], path: "Samples/BuilderTour", swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "stream-file-body", dependencies: ["HTTPBody"], path: "Samples/StreamFileBody", swiftSettings: sharedSwiftSettings),
        // A golden-file check outside any test: links neither XCTest nor Testing.
        .executableTarget(name: "golden-check", dependencies: ["HTTPBodyGoldenFiles"], path: "Samples/GoldenCheck", swiftSettings: sharedSwiftSettings),
        .executableTarget(
            name: "upload-file",
            dependencies: ["RequestBuilder", "RequestBuilderAsyncHTTPClient", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Samples/UploadFile",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "upload-form",
            dependencies: ["RequestBuilder", "RequestBuilderAsyncHTTPClient", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Samples/UploadForm",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "upload-form-urlsession",
            dependencies: ["RequestBuilder", "RequestBuilderURLSession", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Samples/UploadFormURLSession",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "download-file",
            dependencies: ["RequestBuilder", "RequestBuilderAsyncHTTPClient", "HTTPBody", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Samples/DownloadFile",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "conditional-get",
            dependencies: [
                "RequestBuilder",
                "RequestBuilderAsyncHTTPClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Samples/ConditionalGet",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "cookie-session",
            dependencies: ["RequestBuilder", "RequestBuilderAsyncHTTPClient", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Samples/CookieSession",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "resumable-upload",
            dependencies: ["RequestBuilder", "RequestBuilderAsyncHTTPClient", "HTTPBody", "ResumableUploads", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Samples/ResumableUpload",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "s3-upload",
            dependencies: [
                "AWSSigning", "ObjectStorage", "RequestBuilder", "RequestBuilderAsyncHTTPClient", "HTTPBody",
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Samples/S3Upload",
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(name: "sink-server", dependencies: ["TestSupport"], path: "Samples/SinkServer", swiftSettings: sharedSwiftSettings),

        // MARK: Tests

        .target(
            name: "TestSupport",
            dependencies: [
                "HTTPBody",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: sharedSwiftSettings
        ),
        // The IETF resumable-upload server the resumable-upload tests start
        // (Tests/Servers holds the tus server and the fault proxy beside it).
        .executableTarget(
            name: "resumable-upload-server",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
            ],
            path: "Tests/Servers/ResumableUploadServer",
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "HTTPBodyTests",
            dependencies: [
                "HTTPBody",
                "TestSupport",
                "HTTPBodyTesting",
                "CZlib",
                .target(name: "CLibDeflate", condition: .when(platforms: [.linux])),
                .target(name: "CDeflateWalk", condition: .when(platforms: [.linux])),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["__Snapshots__", "__Fixtures__"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "RequestBuilderTests",
            dependencies: [
                "RequestBuilderTesting",
                "HTTPBody",
                "RequestBuilder",
                "HTTPBodyTesting",
                "RequestBuilderURLSession",
                "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "RequestBuilderTransportTests",
            dependencies: [
                "RequestBuilderTesting",
                "RequestBuilder",
                "RequestBuilderURLSession",
                "RequestBuilderAsyncHTTPClient",
                "TestSupport",
                "HTTPBody",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // The library as a user's package sees it: products imported plainly,
        // never `@testable`, so a default that wins over a user's spelling shows.
        .testTarget(
            name: "PublicAPITests",
            dependencies: [
                // Built for the test that reads what it links.
                "golden-check",
                "RequestBuilderTesting",
                "HTTPBody",
                "RequestBuilder",
                "HTTPBodyTesting",
                "RequestBuilderAsyncHTTPClient",
                "RequestBuilderCombine",
                "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                openCombineOffApplePlatforms,
                openCombineDispatchOffApplePlatforms,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: sharedSwiftSettings
        ),
        // The test servers of issue #13 (resumable uploads), started as child processes.
        .testTarget(
            name: "ResumableUploadTests",
            dependencies: [
                "TestSupport",
                "HTTPBody",
                "RequestBuilder",
                "RequestBuilderAsyncHTTPClient",
                "ResumableUploads",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "resumable-upload-server",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        // SigV4 signing (issue #14), checked against published vectors, botocore
        // and an S3-compatible server (moto, Tests/Servers/s3_server.py).
        .testTarget(
            name: "AWSSigningTests",
            dependencies: [
                "RequestBuilderTesting",
                "AWSSigning",
                "HTTPBody",
                "RequestBuilder",
                "RequestBuilderAsyncHTTPClient",
                "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["__Fixtures__"],
            swiftSettings: sharedSwiftSettings
        ),
        // Object stores (issue #14) against moto, started by the tests.
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: [
                "AWSSigning",
                "ObjectStorage",
                "HTTPBody",
                "RequestBuilder",
                "RequestBuilderAsyncHTTPClient",
                "ResumableUploads",
                "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .testTarget(
            name: "UploaderTests",
            dependencies: [
                "uploader",
                "UploaderItems",
                "HTTPBodyTesting",
                "RequestBuilderTesting",
                "TestSupport",
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: sharedSwiftSettings
        ),
    ]
)
