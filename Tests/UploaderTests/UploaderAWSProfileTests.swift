import Foundation
import TestSupport
import Testing

/// `uploader s3://…` with the set-up a working `aws s3 cp` has: keys,
/// region and endpoint only in the shared files (`AWS_SHARED_CREDENTIALS_FILE`,
/// `AWS_CONFIG_FILE`), the profile from `AWS_PROFILE`; against moto with
/// signatures checked.
@Suite(.serialized) struct UploaderAWSProfileTests {
    private static let shared = Task { try await MotoServer.start() }

    /// A folder holding the two files; `HOME` points at it so no real `~/.aws` is read.
    struct Setup {
        let folder: URL
        let environment: [String: String]

        init(server: MotoServer) throws {
            folder = FileManager.default.temporaryDirectory.appending(path: "cli-aws-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let credentials = folder.appending(path: "credentials")
            let config = folder.appending(path: "config")
            try Data("""
                [default]
                aws_access_key_id = AKIANOTTHEONE
                aws_secret_access_key = wrong

                [moto]
                aws_access_key_id = \(server.credentials.accessKeyID)
                aws_secret_access_key = \(server.credentials.secretAccessKey)

                """.utf8).write(to: credentials)
            try Data("""
                [profile moto]
                region = \(server.region)
                endpoint_url = \(server.endpoint.absoluteString)

                """.utf8).write(to: config)
            environment = [
                "HOME": folder.path, "AWS_SHARED_CREDENTIALS_FILE": credentials.path, "AWS_CONFIG_FILE": config.path,
                // Whatever the test run's environment holds, none of it is used.
                "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "",
                "AWS_REGION": "", "AWS_DEFAULT_REGION": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_S3": "",
            ]
        }
    }

    @Test func aProfileFromTheSharedFilesUploads() async throws {
        let server = try await Self.shared.value
        let setup = try Setup(server: server)
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let fixture = try UploadFixture(size: 1_000)
        defer { fixture.remove() }
        let bucket = "profile-\(UUID().uuidString.lowercased().prefix(12))"
        let boto3 = Boto3Client(server: server)
        _ = try await boto3("make-bucket", bucket)

        // No --endpoint-url, no key in the environment: all of it from profile "moto".
        let sent = try await UploaderProcess.run(
            ["s3://\(bucket)/from-profile.bin", fixture.file.path, "--no-progress"],
            environment: setup.environment.merging(["AWS_PROFILE": "moto"]) { $1 }
        )
        #expect(sent.status == 0, "\(sent.standardError)")
        let stored = try await boto3("get", bucket, "from-profile.bin")
        #expect(stored.contains("\"size\": 1000"), "\(stored)")

        // The default profile's key is not moto's: the store refuses it.
        let refused = try await UploaderProcess.run(
            ["s3://\(bucket)/default.bin", fixture.file.path, "--no-progress", "--endpoint-url", server.endpoint.absoluteString],
            environment: setup.environment
        )
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("InvalidAccessKeyId") || refused.standardError.contains("403"), "\(refused.standardError)")
        #expect(!refused.standardError.contains("wrong"))
    }

    @Test func aProfileThatDoesNotExistIsExit2NamingIt() async throws {
        let server = try await Self.shared.value
        let setup = try Setup(server: server)
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let result = try await UploaderProcess.run(
            ["s3://bucket-ok/k", fixture.file.path, "--no-progress"],
            environment: setup.environment.merging(["AWS_PROFILE": "prod"]) { $1 }
        )
        #expect(result.status == 2)
        #expect(result.standardError.contains("the AWS profile 'prod' does not exist"), "\(result.standardError)")
        #expect(result.standardError.contains(setup.folder.appending(path: "credentials").path), "\(result.standardError)")
    }

    /// `--profile` chooses the profile over `AWS_PROFILE`; the endpoint
    /// comes from it unless `AWS_ENDPOINT_URL` says otherwise, and a
    /// profile that does not exist is named.
    @Test func theProfileOptionWinsOverAWSProfile() async throws {
        let server = try await Self.shared.value
        let setup = try Setup(server: server)
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let fixture = try UploadFixture(size: 1_000)
        defer { fixture.remove() }
        let bucket = "option-\(UUID().uuidString.lowercased().prefix(12))"
        let boto3 = Boto3Client(server: server)
        _ = try await boto3("make-bucket", bucket)

        // AWS_PROFILE names the default profile, whose key moto refuses: --profile moto wins.
        let sent = try await UploaderProcess.run(
            ["s3://\(bucket)/from-option.bin", fixture.file.path, "--no-progress", "--profile", "moto"],
            environment: setup.environment.merging(["AWS_PROFILE": "default"]) { $1 }
        )
        #expect(sent.status == 0, "\(sent.standardError)")
        let stored = try await boto3("get", bucket, "from-option.bin")
        #expect(stored.contains("\"size\": 1000"), "\(stored)")

        // AWS_ENDPOINT_URL comes before the profile's endpoint_url: a closed port is tried, and named.
        let listener = try SilentListener()
        let closed = listener.port
        listener.close()
        let elsewhere = try await UploaderProcess.run(
            ["s3://\(bucket)/elsewhere.bin", fixture.file.path, "--no-progress", "--profile", "moto", "--retry", "0"],
            environment: setup.environment.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:\(closed)"]) { $1 }
        )
        #expect(elsewhere.status == 3, "\(elsewhere.standardError)")
        #expect(elsewhere.standardError.contains("127.0.0.1:\(closed)"), "\(elsewhere.standardError)")

        let missing = try await UploaderProcess.run(
            ["s3://\(bucket)/k", fixture.file.path, "--no-progress", "--profile", "staging"],
            environment: setup.environment.merging(["AWS_PROFILE": "moto"]) { $1 }
        )
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("uploader: the AWS profile 'staging' does not exist"), "\(missing.standardError)")
    }
}

/// The CA bundle boto3 trusts for an object store: `AWS_CA_BUNDLE`, else
/// the profile's `ca_bundle`, in place of `SSL_CERT_FILE` (both trust
/// variables set as Debian sets them), for https:// endpoints only.
@Suite(.serialized) struct UploaderAWSCABundleTests {
    @Test func anObjectStoreTrustsTheBundleBoto3Trusts() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appending(path: "cli-aws-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appending(path: "config")
        try Data("""
            [profile private-ca]
            aws_access_key_id = AKIAEXAMPLE
            aws_secret_access_key = secret
            ca_bundle = \(server.file("ca.pem"))

            """.utf8).write(to: config)
        let fixture = try UploadFixture(size: 100)
        defer { fixture.remove() }
        let environment = [
            "HOME": folder.path, "AWS_CONFIG_FILE": config.path, "AWS_SHARED_CREDENTIALS_FILE": folder.appending(path: "none").path,
            "AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "", "AWS_REGION": "us-east-1",
            "AWS_PROFILE": "", "AWS_CA_BUNDLE": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_S3": "",
            "SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt", "SSL_CERT_DIR": "/etc/ssl/certs",
        ]
        func upload(_ key: String, _ variables: [String: String], _ options: [String] = []) async throws -> UploaderProcess.Result {
            try await UploaderProcess.run(
                ["s3://bucket/\(key)", fixture.file.path, "--no-progress", "--retry", "0", "--endpoint-url", server.url().absoluteString] + options,
                environment: environment.merging(variables) { $1 }
            )
        }
        let untrusted = try await upload("untrusted", [:])
        #expect(untrusted.status == 3)
        #expect(untrusted.standardError.contains("is not trusted"), "\(untrusted.standardError)")
        let fromVariable = try await upload("variable", ["AWS_CA_BUNDLE": server.file("ca.pem")])
        #expect(fromVariable.status == 0, "\(fromVariable.standardError)")
        let fromProfile = try await upload("profile", [:], ["--profile", "private-ca"])
        #expect(fromProfile.status == 0, "\(fromProfile.standardError)")
        let missing = "/nonexistent/aws-ca-\(UUID().uuidString).pem"
        let unusable = try await upload("missing", ["AWS_CA_BUNDLE": missing])
        #expect(unusable.status == 2)
        #expect(unusable.standardError == "uploader: cannot read the CA bundle (AWS_CA_BUNDLE) \(missing): No such file or directory\n")
        // A store over plain http:// needs no bundle: the missing one stops nothing.
        let plain = try await TestHTTPServer.start()
        let overHTTP = try await UploaderProcess.run(
            ["s3://bucket/plain", fixture.file.path, "--no-progress", "--retry", "0", "--endpoint-url", "http://127.0.0.1:\(plain.port)"],
            environment: environment.merging(["AWS_CA_BUNDLE": missing]) { $1 }
        )
        try await plain.stop()
        #expect(overHTTP.status == 0, "\(overHTTP.standardError)")
        #expect(plain.requests.map(\.uri) == ["/bucket/plain"])
        #expect(try server.requests().map(\.path) == ["/bucket/variable", "/bucket/profile"])
    }
}
