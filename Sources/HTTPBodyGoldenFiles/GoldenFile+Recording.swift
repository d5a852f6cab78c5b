public import Foundation

extension GoldenFile {
    /// When a golden file may be written.
    public struct Recording: Sendable, Hashable {
        private enum Mode: Hashable {
            case missing, all, never
        }

        private let mode: Mode

        /// Records a golden file that does not exist yet and compares with
        /// one that does: the default on a developer's machine.
        public static let missing = Recording(mode: .missing)

        /// Rewrites every golden file whose bytes differ, and records missing
        /// ones; files that match are left untouched.
        public static let all = Recording(mode: .all)

        /// Never writes: a missing golden file is a failure. What CI needs, so
        /// that a file nobody committed cannot pass by being recorded there.
        public static let never = Recording(mode: .never)

        /// The recording the environment asks for: ``never`` when `CI` is set
        /// (to anything but an empty string, `0` or `false`), ``all`` when
        /// `RECORD_GOLDEN` is set in that way, otherwise ``missing``.
        ///
        /// - Parameter environment: The variables to read; the process's own
        ///   by default.
        public static func environment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Recording {
            func isSet(_ name: String) -> Bool {
                guard let value = environment[name] else { return false }
                return !["", "0", "false"].contains(value.lowercased())
            }
            if isSet("CI") { return .never }
            return isSet("RECORD_GOLDEN") ? .all : .missing
        }
    }
}
