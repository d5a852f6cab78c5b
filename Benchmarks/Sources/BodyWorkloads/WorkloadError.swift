/// A workload that could not run: bad input or a failed write.
public struct WorkloadError: Error, CustomStringConvertible {
    /// A sentence saying what failed.
    public let description: String

    /// Creates an error with its sentence.
    public init(_ description: String) {
        self.description = description
    }
}
