import RequestBuilder
import Testing

/// The small text helpers that stand in for Foundation's on the paths the
/// uploader runs (see `ConditionLock` in HTTPBody for why).
@Suite struct ValueTextTests {
    @Test(arguments: [
        (1.5, 2, "1.50"), (256, 1, "256.0"), (1023.96, 1, "1024.0"), (0, 1, "0.0"),
        (-1.25, 1, "-1.2"), (12.345, 0, "12"), (9.999, 2, "10.00"), (0.001, 3, "0.001"),
    ] as [(Double, Int, String)])
    func writesFixedPointNumbersAsPrintfDoes(value: Double, digits: Int, text: String) {
        #expect(value.fixedPoint(digits: digits) == text)
    }

    @Test func fixedPointFallsBackToTheValuesOwnTextWhenNoFractionFits() {
        #expect(Double.infinity.fixedPoint(digits: 1) == "inf")
        #expect(1e300.fixedPoint(digits: 1) == "\(1e300)")
    }

    @Test(arguments: [
        (" 7 ", "7"), ("\tmax-age=5\t ", "max-age=5"), ("a b", "a b"), ("   ", ""), ("", ""), ("\u{A0}x", "\u{A0}x"),
    ])
    func trimsOnlySpacesAndTabs(text: String, trimmed: String) {
        #expect(text.trimmingOptionalWhitespace == trimmed)
    }
}
