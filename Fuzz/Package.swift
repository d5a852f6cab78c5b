// swift-tools-version: 6.1
import PackageDescription

/// libFuzzer targets for the parent package, built only by Scripts/fuzz.sh
/// (`swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`),
/// never by the parent's `swift test`. Each target defines `LLVMFuzzerTestOneInput`;
/// libFuzzer supplies `main`.
let sharedSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-http-body-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-http-body", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // Sources/UploaderItems is a link to the parent's target of that name,
        // which is not a product; built here again under another module name
        // (target names must be unique across the package graph).
        .target(name: "FuzzUploaderItems", path: "Sources/UploaderItems", swiftSettings: sharedSwiftSettings),
        .target(name: "FuzzSupport", swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "FuzzRequestItem", dependencies: ["FuzzUploaderItems", "FuzzSupport"], swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "FuzzNetrc", dependencies: ["FuzzUploaderItems", "FuzzSupport"], swiftSettings: sharedSwiftSettings),
        .executableTarget(name: "FuzzSessionFile", dependencies: ["FuzzUploaderItems", "FuzzSupport"], swiftSettings: sharedSwiftSettings),
        .executableTarget(
            name: "FuzzFormEncoder",
            dependencies: ["FuzzSupport", .product(name: "HTTPBody", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzHeaderValidation",
            dependencies: [
                "FuzzSupport",
                .product(name: "HTTPBody", package: "swift-http-body"),
                .product(name: "RequestBuilder", package: "swift-http-body"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzRawHTTPRequest",
            dependencies: [
                "FuzzSupport",
                .product(name: "HTTPBody", package: "swift-http-body"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzS3XML",
            dependencies: ["FuzzSupport", .product(name: "ObjectStorage", package: "swift-http-body"), .product(name: "RequestBuilder", package: "swift-http-body"), .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzAWSConfigFile",
            dependencies: ["FuzzSupport", .product(name: "ObjectStorage", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzPresignedPost",
            dependencies: ["FuzzSupport", .product(name: "ObjectStorage", package: "swift-http-body"), .product(name: "HTTPBody", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzResumeState",
            dependencies: [
                "FuzzSupport",
                .product(name: "ObjectStorage", package: "swift-http-body"),
                .product(name: "ResumableUploads", package: "swift-http-body"),
                .product(name: "RequestBuilder", package: "swift-http-body"),
                .product(name: "HTTPBody", package: "swift-http-body"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzResumableHeaders",
            dependencies: [
                "FuzzSupport",
                .product(name: "ResumableUploads", package: "swift-http-body"),
                .product(name: "RequestBuilder", package: "swift-http-body"),
                .product(name: "HTTPBody", package: "swift-http-body"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzDeflateWalk",
            dependencies: ["FuzzSupport", .product(name: "HTTPBody", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzRetryAfter",
            dependencies: ["FuzzSupport", .product(name: "RequestBuilder", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzRedirectLocation",
            dependencies: [
                "FuzzSupport",
                .product(name: "RequestBuilder", package: "swift-http-body"),
                .product(name: "HTTPBody", package: "swift-http-body"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzRawJSON",
            dependencies: ["FuzzSupport", .product(name: "HTTPBody", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzCookies",
            dependencies: ["FuzzSupport", .product(name: "RequestBuilder", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzJSONPrettyPrinter",
            dependencies: ["FuzzSupport", .product(name: "RequestBuilder", package: "swift-http-body")],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzLegacyState",
            dependencies: [
                "FuzzUploaderItems",
                "FuzzSupport",
                .product(name: "ObjectStorage", package: "swift-http-body"),
                .product(name: "ResumableUploads", package: "swift-http-body"),
            ],
            swiftSettings: sharedSwiftSettings
        ),
        .executableTarget(
            name: "FuzzLogRedaction",
            dependencies: ["FuzzSupport", .product(name: "RequestBuilder", package: "swift-http-body"), .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: sharedSwiftSettings
        ),
    ]
)
