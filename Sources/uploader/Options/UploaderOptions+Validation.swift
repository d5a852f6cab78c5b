import ArgumentParser
import Foundation
import ObjectStorage
import UploaderItems

/// The range checks of the options that belong together, each called from
/// ``UploaderOptions/validate()``: values the parser can judge alone.
/// Which kinds of upload take an option is ``OptionRule/table``'s to say.
extension UploaderOptions {
    /// `--max-redirects`' range, and that it comes with `-L`: an option that
    /// would do nothing is refused, not ignored.
    func validateRedirects() throws {
        if let maxRedirects, !(0...Self.maximumRedirectsLimit).contains(maxRedirects) {
            throw ValidationError("--max-redirects \(maxRedirects): give a whole number of redirects from 0 to \(Self.maximumRedirectsLimit)")
        }
        if !follow, maxRedirects != nil { throw ValidationError("--max-redirects applies with -L/--follow; add -L") }
    }

    /// The credential options' own conflicts.
    func validateAuthentication() throws {
        if auth != nil, bearer != nil {
            throw ValidationError("--auth and --bearer are two kinds of credentials; choose one")
        }
    }

    /// The resumable options' values.
    func validateResumable() throws {
        if let chunkSize, ChunkSize.parse(chunkSize) == nil {
            throw ValidationError("--chunk-size \(chunkSize): give a positive number of bytes, with K, M or G if wanted (such as 8M), at most 1024G")
        }
        if let resumeFrom, URL(string: resumeFrom).map({ $0.scheme == "http" || $0.scheme == "https" }) != true {
            throw ValidationError("--resume-from \(TargetURL.masked(resumeFrom)): give the upload's http or https URL")
        }
        if let resumeFrom, let url = URL(string: resumeFrom), url.user != nil || url.password != nil {
            throw ValidationError("--resume-from \(TargetURL.masked(resumeFrom)): the upload URL cannot carry a user name or password; give them in the URL argument (http://user:pass@host/...)")
        }
    }

    /// The object-store options' values.
    func validateObjectStorage() throws {
        for (text, option) in [(partSize, "--part-size"), (multipartThreshold, "--multipart-threshold")] {
            if let text, ChunkSize.parse(text) == nil {
                throw ValidationError("\(option) \(text): give a positive number of bytes, with K, M or G if wanted (such as 8M)")
            }
        }
        if let partSize, let bytes = ChunkSize.parse(partSize), !(S3MultipartUpload.minimumPartSize...S3MultipartUpload.maximumPartSize).contains(bytes) {
            throw ValidationError("--part-size \(partSize): S3 takes parts of 5M to 5G")
        }
        if let concurrency, !(1...64).contains(concurrency) {
            throw ValidationError("--concurrency \(concurrency): give a whole number of parts from 1 to 64")
        }
        if let endpointURL, URL(string: endpointURL).map({ ($0.scheme == "http" || $0.scheme == "https") && $0.host?.isEmpty == false }) != true {
            throw ValidationError("--endpoint-url \(TargetURL.masked(endpointURL)): give the store's http or https URL, such as http://127.0.0.1:9000")
        }
        if let endpointURL, let url = URL(string: endpointURL), url.user != nil || url.password != nil {
            throw ValidationError("--endpoint-url \(TargetURL.masked(endpointURL)): the store's URL cannot carry a user name or password; requests are signed with the AWS credentials of the environment")
        }
        if let region, region.isEmpty || !region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw ValidationError("--region \(region): a region is letters, digits and dashes, such as eu-west-1")
        }
    }
}
