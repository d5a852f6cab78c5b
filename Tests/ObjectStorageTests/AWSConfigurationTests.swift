import AWSSigning
import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// `AWSConfiguration` reads the AWS shared files as boto3 does: each case
/// writes real files to a temporary folder, points `HOME`,
/// `AWS_SHARED_CREDENTIALS_FILE` and `AWS_CONFIG_FILE` at them, and compares
/// what the loader read with what boto3 (`Tests/Servers/aws_config_oracle.py`)
/// reads from the same files and environment.
@Suite struct AWSConfigurationTests {
    /// What boto3 read, or the exception it raised.
    struct Oracle: Decodable, Equatable {
        var accessKeyID: String?
        var secretAccessKey: String?
        var sessionToken: String?
        var region: String?
        var endpoint: String?
        var error: String?
    }

    /// A folder with the two shared files, removed by `remove()`.
    struct SharedFiles {
        let folder: URL
        var credentials: URL { folder.appending(path: "credentials") }
        var config: URL { folder.appending(path: "config") }

        init(credentials: String, config: String) throws {
            folder = FileManager.default.temporaryDirectory.appending(path: "awscfg-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(credentials.utf8).write(to: self.credentials)
            try Data(config.utf8).write(to: self.config)
        }

        /// The environment that points at these files and nowhere else (`HOME` is the folder).
        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            [
                "HOME": folder.path,
                "AWS_SHARED_CREDENTIALS_FILE": credentials.path,
                "AWS_CONFIG_FILE": config.path,
            ].merging(extra) { $1 }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static let credentialsFile = """
        # The default profile, with comments of both kinds
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = secret/default+key

        ; keys are case-insensitive, values keep '#' and ':'
        [dev]
        AWS_Access_Key_ID=AKIADEV
        aws_secret_access_key: dev:secret=with=equals
        aws_session_token = token-dev # not a comment

        [profile literal]
        aws_access_key_id = AKIALITERAL
        aws_secret_access_key = literal-secret

        """

    static let configFile = """
        [default]
        region = eu-west-1

        [profile dev]
        region=ap-south-1
        aws_access_key_id = AKIASHADOWED
        aws_secret_access_key = shadowed-by-the-credentials-file

        [profile "with space"]
          aws_access_key_id = AKIASPACE
          aws_secret_access_key = space-secret
          region = us-west-2
          endpoint_url = http://127.0.0.1:9100

        [profile staging]
        aws_access_key_id = AKIASTAGING
        aws_secret_access_key = staging-secret
        aws_security_token = old-style-token
        endpoint_url = http://localhost:9100
        services = local

        [services local]
        s3 =
            endpoint_url = http://127.0.0.1:9200
            addressing_style = path

        [profile continued]
        aws_access_key_id = AKIACONT
        aws_secret_access_key = first
            second-line

        [profile regiononly]
        region = ca-central-1

        """

    /// What boto3 reads for `profile` (nil: none given) under `environment`.
    static func oracle(profile: String?, environment: [String: String]) async throws -> Oracle {
        let python = try await TestPython.withServerPackages()
        let process = Process()
        process.executableURL = URL(filePath: python)
        process.arguments = [TestPackage.serverScript("aws_config_oracle.py").path, profile ?? ""]
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Oracle.self, from: data)
    }

    /// What the loader reads, in the oracle's terms (the endpoint as boto3 would pick for the region).
    static func loaded(profile: String?, environment: [String: String]) -> Oracle {
        do {
            let configuration = try AWSConfiguration.load(profile: profile, environment: environment)
            let region = configuration.region ?? "us-east-1"
            let endpoint = configuration.endpointURL?.absoluteString
                ?? (region == "us-east-1" ? "https://s3.amazonaws.com" : "https://s3.\(region).amazonaws.com")
            return Oracle(
                accessKeyID: configuration.credentials.accessKeyID,
                secretAccessKey: configuration.credentials.secretAccessKey,
                sessionToken: configuration.credentials.sessionToken,
                region: configuration.region,
                endpoint: endpoint
            )
        } catch {
            return Oracle(error: "\(error.code)")
        }
    }

    @Test(arguments: [
        (nil, [:]),
        ("default", [:]),
        ("dev", [:]),
        ("with space", [:]),
        ("staging", [:]),
        ("continued", [:]),
        (nil, ["AWS_PROFILE": "dev"]),
        (nil, ["AWS_PROFILE": "staging", "AWS_ENDPOINT_URL": "http://127.0.0.1:9300"]),
        ("staging", ["AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9400", "AWS_ENDPOINT_URL": "http://127.0.0.1:9300"]),
        (nil, ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token"]),
        (nil, ["AWS_PROFILE": "dev", "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret"]),
        ("dev", ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret"]),
        ("dev", ["AWS_DEFAULT_REGION": "sa-east-1"]),
    ] as [(String?, [String: String])])
    func readsWhatBoto3Reads(profile: String?, extra: [String: String]) async throws {
        let files = try SharedFiles(credentials: Self.credentialsFile, config: Self.configFile)
        defer { files.remove() }
        let environment = files.environment(extra)
        let expected = try await Self.oracle(profile: profile, environment: environment)
        #expect(expected.error == nil, "boto3 failed: \(expected.error ?? "")")
        #expect(Self.loaded(profile: profile, environment: environment) == expected)
    }

    @Test(arguments: [
        "missing",  // in neither file
        "regiononly",  // exists, but no key anywhere
        "literal",  // [profile literal] in the credentials file is not "literal"
    ])
    func failsWhereBoto3Fails(profile: String) async throws {
        let files = try SharedFiles(credentials: Self.credentialsFile, config: Self.configFile)
        defer { files.remove() }
        let expected = try await Self.oracle(profile: profile, environment: files.environment())
        #expect(expected.error != nil)
        #expect(Self.loaded(profile: profile, environment: files.environment()).error == "invalidConfiguration")
    }

    @Test func aMissingProfileIsNamedWithTheFilesLookedIn() throws {
        let files = try SharedFiles(credentials: Self.credentialsFile, config: Self.configFile)
        defer { files.remove() }
        let error = #expect(throws: S3Error.self) {
            try AWSConfiguration.load(environment: files.environment(["AWS_PROFILE": "prod"]))
        }
        #expect(error?.description == "the AWS profile 'prod' does not exist: it is in neither \(files.credentials.path) nor \(files.config.path) (as [prod] or [profile prod])")
    }

    @Test func noErrorOrDescriptionShowsASecret() throws {
        let files = try SharedFiles(
            credentials: "[default]\naws_access_key_id = AKIAKEY\naws_secret_access_key = s3cr3t-value\naws_session_token = t0ken-value\n",
            config: "[default]\nregion = eu-west-1\nthis line has s3cr3t-value and no equals sign\n"
        )
        defer { files.remove() }
        let error = #expect(throws: S3Error.self) { try AWSConfiguration.load(environment: files.environment()) }
        #expect(error?.description == "\(files.config.path), line 3: neither a [section], a 'key = value' line nor an indented continuation")

        try Data("[default]\nregion = eu-west-1\n".utf8).write(to: files.config)
        let configuration = try AWSConfiguration.load(environment: files.environment())
        #expect(configuration.credentials.sessionToken == "t0ken-value")
        #expect(!"\(configuration)".contains("s3cr3t") && !"\(configuration)".contains("t0ken"))
        #expect("\(configuration)".contains("AKIAKEY"))
    }

    @Test func aKeyWithoutItsSecretIsAnError() async throws {
        let files = try SharedFiles(credentials: "[default]\naws_access_key_id = AKIAONLY\n", config: "")
        defer { files.remove() }
        #expect(try await Self.oracle(profile: nil, environment: files.environment()).error != nil)
        let error = #expect(throws: S3Error.self) { try AWSConfiguration.load(environment: files.environment()) }
        #expect(error?.description == "the profile 'default' in \(files.credentials.path) has an aws_access_key_id but no aws_secret_access_key")
    }

    @Test func readsFilesWithWindowsLineEnds() async throws {
        let files = try SharedFiles(
            credentials: Self.credentialsFile.replacingOccurrences(of: "\n", with: "\r\n"),
            config: Self.configFile.replacingOccurrences(of: "\n", with: "\r\n")
        )
        defer { files.remove() }
        let expected = try await Self.oracle(profile: "staging", environment: files.environment())
        #expect(expected.accessKeyID == "AKIASTAGING")
        #expect(Self.loaded(profile: "staging", environment: files.environment()) == expected)
    }

    @Test func anEndpointThatIsNoHTTPURLIsNamed() throws {
        let files = try SharedFiles(credentials: "[default]\naws_access_key_id = A\naws_secret_access_key = B\n", config: "[default]\nservices = nowhere\n")
        defer { files.remove() }
        let error = #expect(throws: S3Error.self) { try AWSConfiguration.load(environment: files.environment(["AWS_ENDPOINT_URL": "ftp://store"])) }
        #expect(error?.description == "AWS_ENDPOINT_URL is 'ftp://store', which is not an http:// or https:// URL")
        let missing = #expect(throws: S3Error.self) { try AWSConfiguration.load(environment: files.environment()) }
        #expect(missing?.description == "the profile 'default' names the services section 'nowhere', which \(files.config.path) does not have")
    }

    @Test func anUnnamedDefaultProfileNeedNotExist() throws {
        let files = try SharedFiles(credentials: "", config: "")
        defer { files.remove() }
        let configuration = try AWSConfiguration.load(environment: files.environment(["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "x", "AWS_REGION": "eu-central-1"]))
        #expect(configuration.credentialsSource == "environment")
        #expect(configuration.region == "eu-central-1")
        #expect(configuration.endpointURL == nil)
    }

    /// An upload to moto signed with keys that exist only in the shared
    /// files (the user's in one profile, the role session's in another,
    /// with its token): what a user with a working `aws s3 cp` has.
    @Test func uploadsToMotoWithKeysFromTheSharedFiles() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let user = store.server.credentials
        let session = store.server.sessionCredentials
        let files = try SharedFiles(
            credentials: """
                [uploader]
                aws_access_key_id = \(user.accessKeyID)
                aws_secret_access_key = \(user.secretAccessKey)
                """,
            config: """
                [profile uploader]
                region = \(store.server.region)
                endpoint_url = \(store.server.endpoint.absoluteString)

                [profile role]
                aws_access_key_id = \(session.accessKeyID)
                aws_secret_access_key = \(session.secretAccessKey)
                aws_session_token = \(session.sessionToken ?? "")
                region = \(store.server.region)
                s3 =
                  endpoint_url = \(store.server.endpoint.absoluteString)
                """
        )
        defer { files.remove() }
        for profile in ["uploader", "role"] {
            let configuration = try AWSConfiguration.load(profile: profile, environment: files.environment())
            let s3 = S3Client(configuration: configuration, transport: AsyncHTTPClientTransport())
            let location = try S3Location(bucket: bucket, key: "\(profile).txt")
            try await s3.putObject(.text("sent as \(profile)"), at: location)
            let stored = try await store.object(location)
            #expect(String(decoding: stored.body, as: UTF8.self) == "sent as \(profile)")
        }
        // The wrong secret in the file is refused by the store: the file's key is the one used.
        try Data("[uploader]\naws_access_key_id = \(user.accessKeyID)\naws_secret_access_key = wrong\n".utf8).write(to: files.credentials)
        let s3 = S3Client(configuration: try .load(profile: "uploader", environment: files.environment()), transport: AsyncHTTPClientTransport())
        await #expect(throws: S3Error.self) { try await s3.putObject(.text("refused"), at: S3Location(bucket: bucket, key: "refused.txt")) }
    }
}
