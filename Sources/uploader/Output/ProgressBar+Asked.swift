import Foundation

extension ProgressBar {
    /// Whether a progress bar is drawn when neither `--progress` nor
    /// `--no-progress` is given: on a terminal that can take it back
    /// (standard error, and `TERM` not `dumb`).
    static var drawsUnasked: Bool {
        OutputFile.standardError.isTerminal && ProcessEnvironment.variables["TERM"] != "dumb"
    }

    /// The bar `--progress` or `--no-progress` asks for (`asked`), else the
    /// one drawn unasked; `nil` when none is drawn.
    static func asked(_ asked: Bool?) -> ProgressBar? {
        asked ?? drawsUnasked ? ProgressBar() : nil
    }
}
