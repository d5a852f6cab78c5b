import Foundation

/// Why a multipart body could not be built or sent. Each description names the
/// part (by its field name) or the boundary at fault.
public struct MultipartError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The boundary is not 1-70 characters RFC 2046 allows.
        public static let invalidBoundary = Code("invalidBoundary")
        /// The boundary occurs inside a part, which would end the part early.
        public static let boundaryInContent = Code("boundaryInContent")
        /// A part header (its name, value or content type) would break the framing.
        public static let invalidHeader = Code("invalidHeader")
    }

    /// The kind of failure.
    public let code: Code
    /// The field name of the part at fault, if a part is at fault.
    public let partName: String?
    /// A sentence that says what went wrong and names the part or boundary at fault.
    public let description: String

    /// Creates an error with a code, the part at fault and a description.
    public init(code: Code, partName: String?, description: String) {
        self.code = code
        self.partName = partName
        self.description = description
    }

    static func invalidBoundary(_ value: String) -> Self {
        Self(
            code: .invalidBoundary, partName: nil,
            description: "The multipart boundary \(value.debugDescription) is invalid: it must be 1-70 characters from letters, digits and '()+_,-./:=? or space, not ending in a space (RFC 2046)"
        )
    }

    static func boundaryInContent(part: String, file: String?, boundary: String) -> Self {
        let source = file.map { " (file \($0))" } ?? ""
        return Self(
            code: .boundaryInContent, partName: part,
            description: "The multipart boundary \(boundary.debugDescription) occurs in part \(part.debugDescription)\(source); choose another boundary or use a random one"
        )
    }

    static func invalidHeader(part: String, header: String, reason: String) -> Self {
        Self(
            code: .invalidHeader, partName: part,
            description: "The \(header) header of part \(part.debugDescription) \(reason), which would break the multipart framing"
        )
    }
}
