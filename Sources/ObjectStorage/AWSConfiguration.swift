public import AWSSigning
public import Foundation
import HTTPBody

/// The credentials, region and endpoint the AWS CLI and SDKs would use,
/// read as botocore reads them: the environment first, then the shared
/// files `~/.aws/credentials` and `~/.aws/config`.
///
/// ```swift
/// let aws = try AWSConfiguration.load(profile: "staging")
/// let s3 = S3Client(configuration: aws, transport: AsyncHTTPClientTransport())
/// ```
///
/// - The profile is `profile`, else `AWS_PROFILE`, else `default`. A named
///   profile that neither file has is an error naming it and both files.
/// - Credentials: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`
///   (`AWS_SESSION_TOKEN`) unless `profile` is given (an explicit profile
///   overrules the environment's key, as in botocore and the AWS CLI's
///   `--profile`); then the profile's `aws_access_key_id`,
///   `aws_secret_access_key` and `aws_session_token` in the credentials file
///   (`AWS_SHARED_CREDENTIALS_FILE`), then in the config file (`AWS_CONFIG_FILE`).
/// - Region: `AWS_REGION`, `AWS_DEFAULT_REGION`, then the profile's `region`.
/// - Endpoint: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the `s3`
///   sub-section's `endpoint_url` in the profile's `[services NAME]`, the
///   profile's `endpoint_url`, then (which botocore does not read, so it
///   comes last) an `s3` sub-section's `endpoint_url` in the profile itself;
///   none when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is `true`.
/// - CA bundle: `AWS_CA_BUNDLE`, then the profile's `ca_bundle`.
///
/// Only static keys are read: no SSO, `credential_process`, role
/// assumption or instance metadata. Neither errors nor ``description`` ever
/// show a secret or a line of the files.
public struct AWSConfiguration: Sendable, CustomStringConvertible {
    /// The profile read: the one given, `AWS_PROFILE`, or `default`.
    public var profile: String
    /// The access key that signs requests.
    public var credentials: AWSCredentials
    /// Where ``credentials`` came from: `environment`, or a file's path.
    public var credentialsSource: String
    /// The region, when the environment or the profile names one (S3's
    /// default, `us-east-1`, is the client's choice, not the set-up's).
    public var region: String?
    /// An S3-compatible endpoint to use instead of AWS's, when one is configured.
    public var endpointURL: URL?
    /// The PEM file of CA certificates that HTTPS requests to the object
    /// store trust instead of the system's store, when one is configured
    /// (`AWS_CA_BUNDLE` or the profile's `ca_bundle`, as boto3 reads them).
    /// Give it to the transport's trust roots: the set-up reads no file.
    public var caBundle: String?

    /// Creates a set-up from its parts.
    public init(profile: String = "default", credentials: AWSCredentials, credentialsSource: String = "arguments", region: String? = nil, endpointURL: URL? = nil) {
        self.profile = profile
        self.credentials = credentials
        self.credentialsSource = credentialsSource
        self.region = region
        self.endpointURL = endpointURL
    }

    /// The set-up without its secrets: profile, key ID, where the key came from, region, endpoint.
    public var description: String {
        "AWSConfiguration(profile \(profile), \(credentials) from \(credentialsSource), region \(region ?? "unset"), endpoint \(endpointURL?.absoluteString ?? "AWS"))"
    }

    /// Reads the set-up as botocore does (see ``AWSConfiguration``).
    ///
    /// - Parameters:
    ///   - profile: The profile to read, overruling `AWS_PROFILE` and the
    ///     environment's key (as the AWS CLI's `--profile`); `nil` for `AWS_PROFILE` or `default`.
    ///   - environment: The variables to read; the process's by default.
    ///     `HOME` locates `~/.aws`.
    /// - Throws: ``S3Error/Code/invalidConfiguration`` for a named profile
    ///   that does not exist, no credentials anywhere, a key ID without its
    ///   secret, a file that cannot be read or parsed, or an endpoint that is no URL.
    public static func load(
        profile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(S3Error) -> AWSConfiguration {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func failure(_ description: String) -> S3Error { S3Error(code: .invalidConfiguration, description: description) }

        let credentialsPath = expand(variable("AWS_SHARED_CREDENTIALS_FILE") ?? "~/.aws/credentials", home: environment["HOME"])
        let configPath = expand(variable("AWS_CONFIG_FILE") ?? "~/.aws/config", home: environment["HOME"])
        let credentialsFile = try read(credentialsPath)
        let configFile = try read(configPath)
        let fromCredentials = credentialsFile?.sections ?? [:]
        let fromConfig = configFile?.configProfiles ?? [:]

        let named = profile ?? variable("AWS_PROFILE")
        let name = named ?? "default"
        if let named, fromCredentials[named] == nil, fromConfig[named] == nil {
            throw failure("the AWS profile '\(named)' does not exist: it is in neither \(credentialsPath) nor \(configPath) (as [\(named)] or [profile \(named)])")
        }
        // botocore's profile: the config file's, the credentials file's keys over it.
        let settings = (fromConfig[name] ?? [:]).merging(fromCredentials[name] ?? [:]) { $1 }

        let credentials: AWSCredentials
        let source: String
        if profile == nil, variable("AWS_ACCESS_KEY_ID") != nil {
            do {
                credentials = try AWSCredentials.environment(environment)
            } catch {
                throw failure(error.description)
            }
            source = "environment"
        } else if let found = try staticKey(fromCredentials[name], path: credentialsPath, profile: name) {
            (credentials, source) = (found, credentialsPath)
        } else if let found = try staticKey(fromConfig[name], path: configPath, profile: name) {
            (credentials, source) = (found, configPath)
        } else {
            throw failure("no AWS credentials: AWS_ACCESS_KEY_ID is not set or empty\(profile == nil ? "" : " (and is not used with an explicit profile)"), and the profile '\(name)' has no aws_access_key_id in \(credentialsPath) or \(configPath)")
        }

        let region = variable("AWS_REGION") ?? variable("AWS_DEFAULT_REGION") ?? settings["region"]?.text.flatMap { $0.isEmpty ? nil : $0 }

        var endpoint: (text: String, source: String)?
        if variable("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercased() != "true" {
            var services: [String: AWSConfigFile.Value]?
            // As botocore: the services section is looked up only when the environment names no endpoint.
            let fromEnvironment = variable("AWS_ENDPOINT_URL_S3") ?? variable("AWS_ENDPOINT_URL")
            if fromEnvironment == nil, let section = settings["services"]?.text {
                services = configFile?.serviceSections[section]
                guard services != nil else {
                    throw failure("the profile '\(name)' names the services section '\(section)', which \(configPath) does not have")
                }
            }
            let candidates: [(String?, String)] = [
                (variable("AWS_ENDPOINT_URL_S3"), "AWS_ENDPOINT_URL_S3"),
                (variable("AWS_ENDPOINT_URL"), "AWS_ENDPOINT_URL"),
                (services?["s3"].flatMap(\.nestedEndpoint), "the s3 endpoint_url of [services \(settings["services"]?.text ?? "")] in \(configPath)"),
                (settings["endpoint_url"]?.text, "the endpoint_url of profile '\(name)'"),
                // Not read by botocore, so last: it changes nothing boto3 would use.
                (settings["s3"].flatMap(\.nestedEndpoint), "the s3 endpoint_url of profile '\(name)'"),
            ]
            endpoint = candidates.lazy.compactMap { text, source in text.flatMap { $0.isEmpty ? nil : (text: $0, source: source) } }.first
        }
        var endpointURL: URL?
        if let endpoint {
            guard let url = URL(string: endpoint.text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw failure("\(endpoint.source) is '\(endpoint.text)', which is not an http:// or https:// URL")
            }
            endpointURL = url
        }
        var configuration = AWSConfiguration(profile: name, credentials: credentials, credentialsSource: source, region: region, endpointURL: endpointURL)
        configuration.caBundle = variable("AWS_CA_BUNDLE") ?? settings["ca_bundle"]?.text.flatMap { $0.isEmpty ? nil : expand($0, home: environment["HOME"]) }
        return configuration
    }

    /// The profile's static key, `nil` when it names none; a key ID without its secret is an error.
    private static func staticKey(_ settings: [String: AWSConfigFile.Value]?, path: String, profile: String) throws(S3Error) -> AWSCredentials? {
        guard let settings, let keyID = settings["aws_access_key_id"]?.text, !keyID.isEmpty else { return nil }
        guard let secret = settings["aws_secret_access_key"]?.text, !secret.isEmpty else {
            throw S3Error(code: .invalidConfiguration, description: "the profile '\(profile)' in \(path) has an aws_access_key_id but no aws_secret_access_key")
        }
        // botocore looks for the old name first.
        let token = (settings["aws_security_token"] ?? settings["aws_session_token"])?.text.flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: token)
    }

    /// The file at `path` parsed, `nil` when there is none (a missing file is no error, as for botocore).
    private static func read(_ path: String) throws(S3Error) -> AWSConfigFile? {
        guard FileStatus.isDirectory(atPath: path) == false else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            throw S3Error(code: .invalidConfiguration, description: "\(path) cannot be read: \(SystemErrorText.describe(fileError: error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw S3Error(code: .invalidConfiguration, description: "\(path) is not UTF-8 text")
        }
        return try AWSConfigFile(parsing: text, path: path)
    }

    /// `path` with a leading `~` replaced by `home` (the environment's `HOME`, else the user's).
    private static func expand(_ path: String, home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = home.flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + path.dropFirst()
    }
}

extension AWSConfigFile.Value {
    /// The `endpoint_url` of a sub-section (`s3 =` then indented `endpoint_url = …`).
    var nestedEndpoint: String? {
        if case .section(let values) = self { return values["endpoint_url"] }
        return nil
    }
}
