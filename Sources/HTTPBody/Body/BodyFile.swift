/// A file a body reads as it is sent, and the size it had when the body was
/// made: what an upload resumed later checks is still the same.
package struct BodyFile: Sendable, Hashable {
    package let location: FileLocation
    package let length: Int64

    package init(location: FileLocation, length: Int64) {
        self.location = location
        self.length = length
    }
}
