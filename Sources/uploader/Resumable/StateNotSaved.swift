import Foundation

/// The resume state could not be written: the upload stops, since a crash
/// after it would not be resumable.
struct StateNotSaved: Error, CustomStringConvertible {
    var file: URL
    var reason: String
    var description: String { "cannot save the resume state to \(file.path): \(reason); the upload was stopped" }
}
