import Foundation
public import HTTPBody

extension GoldenFile {
    /// Why a comparison with a golden file did not pass; its description is
    /// the message a test reports, diff included.
    public struct Failure: DescribedError, Sendable, Hashable {
        /// What kind of failure this is.
        public let kind: Kind
        /// A message naming the golden file, with a readable diff when the
        /// bytes differ.
        public let description: String

        init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }
    }
}

extension GoldenFile.Failure {
    /// The kinds of failure, as static members so more can be added without
    /// breaking a caller's code; each prints as its name (`recorded`).
    public struct Kind: ErrorCode {
        /// The kind's name, as its static member is spelled.
        public let name: String
        private init(name: String) { self.name = name }

        /// The bytes differ from the golden file's.
        public static let mismatch = Kind(name: "mismatch")
        /// The golden file was written (recorded for the first time, or
        /// re-recorded); check it and run the test again.
        public static let recorded = Kind(name: "recorded")
        /// The golden file does not exist and recording was not allowed.
        public static let missing = Kind(name: "missing")
        /// The golden file could not be read or written.
        public static let fileSystem = Kind(name: "fileSystem")
    }
}
