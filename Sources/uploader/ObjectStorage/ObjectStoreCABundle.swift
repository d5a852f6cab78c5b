import Foundation
import HTTPBody
import ObjectStorage
import UploaderItems

/// The CA bundle an object store's `https://` requests trust, as boto3
/// reads it: `AWS_CA_BUNDLE`, else the profile's `ca_bundle`. It takes
/// `SSL_CERT_FILE`'s place; `SSL_CERT_DIR` and `--cacert` stay as for any
/// request. A store reached over plain `http://` needs none, so a bundle
/// that cannot be used stops only an `https://` one.
enum ObjectStoreCABundle {
    /// The bundle's path, checked to hold a PEM certificate when the store
    /// is reached over `https://`; `nil` when none is configured or the
    /// store is reached over `http://`. A set-up that cannot be read is
    /// reported by the upload itself, which reads it again.
    static func path(
        profile: String?, endpointURL: String?,
        environment: [String: String] = ProcessEnvironment.variables
    ) throws(InputError) -> String? {
        guard let configuration = try? AWSConfiguration.load(profile: profile, environment: environment),
              let bundle = configuration.caBundle else { return nil }
        let endpoint = endpointURL.flatMap(URL.init(string:)) ?? configuration.endpointURL
        if endpoint?.scheme?.lowercased() == "http" { return nil }
        let source = environment["AWS_CA_BUNDLE"].map { !$0.isEmpty } == true ? "AWS_CA_BUNDLE" : "the ca_bundle of profile '\(configuration.profile)'"
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: bundle))
        } catch {
            throw InputError(.unusableFile, "cannot read the CA bundle (\(source)) \(bundle): \(SystemErrorText.describe(fileError: error))")
        }
        guard bytes.firstRange(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            throw InputError(.unusableFile, "the CA bundle (\(source)) \(bundle) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        return bundle
    }
}
