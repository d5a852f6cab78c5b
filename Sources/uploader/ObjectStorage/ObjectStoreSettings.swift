import AWSSigning
import Foundation
import HTTPTypes
import ObjectStorage
import UploaderItems

/// What every object of one `s3://` command shares, read once: the
/// headers given (`-H` and header items), the credentials, the region and the endpoint, as the AWS
/// CLI reads its set-up (the environment, then `~/.aws`'s files and
/// `--profile`'s or `AWS_PROFILE`'s profile; `--region` and
/// `--endpoint-url` win).
struct ObjectStoreSettings: Sendable {
    /// The `-H` and `Header:` items as typed: part of each resume state's key.
    let headers: [String]
    let headerFields: HTTPFields
    let credentials: AWSCredentials
    let region: String
    let endpoint: S3Endpoint

    /// Reads the set-up; `headerItems` are the positionals' `Name:value`
    /// items, sent after the `-H` headers.
    init(commandLine: CommandLineSplit, options: UploaderOptions, headerItems: [String]) throws(InputError) {
        headers = commandLine.headers + headerItems
        headerFields = try HeaderOption.fields(headers)
        let configuration: AWSConfiguration
        do {
            configuration = try AWSConfiguration.load(profile: options.profile, environment: ProcessEnvironment.variables)
        } catch {
            throw InputError(.invalidRequest, error.description)
        }
        credentials = configuration.credentials
        region = options.region ?? configuration.region ?? "us-east-1"
        if let endpointURL = options.endpointURL.flatMap(URL.init(string:)) ?? configuration.endpointURL {
            endpoint = S3Endpoint(url: endpointURL, region: region, addressing: .path)
        } else {
            endpoint = .aws(region: region)
        }
    }
}
