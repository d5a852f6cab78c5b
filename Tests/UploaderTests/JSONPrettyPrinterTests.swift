import HTTPBody
import RequestBuilder
import Testing
@testable import uploader

/// The formatting behind `--pretty` (contract, "The real network (version
/// 6)": response output), through its seam: a JSON document in, the text a
/// terminal shows out, or nothing when the bytes are not one JSON value (the
/// caller then writes them as sent).
@Suite struct JSONPrettyPrinterTests {
    private let format = JSONPrettyPrinter(indents: true, colours: false)

    private func formatted(_ text: String, _ printer: JSONPrettyPrinter? = nil) -> String? {
        (printer ?? format).format(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func indentsByFourSpacesKeepingOrderAndTokensAsWritten() {
        let document = #"{"z":1,"a":[true,false,null,{"n":9007199254740993,"x":1.5e300,"s":"tab\there \u001b[31m é"}],"e":{},"l":[]}"#
        #expect(formatted(document) == """
            {
                "z": 1,
                "a": [
                    true,
                    false,
                    null,
                    {
                        "n": 9007199254740993,
                        "x": 1.5e300,
                        "s": "tab\\there \\u001b[31m é"
                    }
                ],
                "e": {},
                "l": []
            }

            """)
    }

    @Test func spacingAroundTokensIsReplaced() {
        #expect(formatted(" \r\n[ 1 ,\t\"a\" ]\n") == "[\n    1,\n    \"a\"\n]\n")
        #expect(formatted("\"just a string\"") == "\"just a string\"\n")
        #expect(formatted("-0.5E-3") == "-0.5E-3\n")
    }

    @Test func coloursEachKindOfToken() {
        let all = JSONPrettyPrinter(indents: true, colours: true)
        #expect(formatted(#"{"k":"v","n":-2,"t":true}"#, all) == """
            {
                \u{1B}[34m"k"\u{1B}[0m: \u{1B}[33m"v"\u{1B}[0m,
                \u{1B}[34m"n"\u{1B}[0m: \u{1B}[36m-2\u{1B}[0m,
                \u{1B}[34m"t"\u{1B}[0m: \u{1B}[35mtrue\u{1B}[0m
            }

            """)
    }

    @Test func coloursAloneKeepTheServersSpacing() {
        let colours = JSONPrettyPrinter(indents: false, colours: true)
        #expect(formatted("{ \"k\" :[1, null] }\n", colours) == "{ \u{1B}[34m\"k\"\u{1B}[0m :[\u{1B}[36m1\u{1B}[0m, \u{1B}[35mnull\u{1B}[0m] }\n")
    }

    @Test(arguments: [
        "", " ", "{", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\" 1}", "{1:2}", "01", "1.", ".5", "1e", "+1", "tru", "nul",
        "\"unterminated", "\"bad \\x escape\"", "\"raw \n newline\"", "\"\\u12G4\"", "{} {}", "[]x", "NaN", "'single'",
    ])
    func whatIsNotOneJSONValueIsNotFormatted(_ text: String) {
        #expect(formatted(text) == nil, "\(text.debugDescription)")
    }

    /// The printer and `:=` values share one grammar: what one takes the
    /// other takes, at every depth up to the limit and past it.
    @Test(arguments: [
        "", " ", "{", "{\"a\":1,}", "[1,]", "{1:2}", "01", "1.", "1e", "tru", "\"raw \n newline\"", "\"\\u12G4\"", "{} {}",
        "0", "-0.5E-3", "[]", " {\"a\": [1, \"b\", null, {}]} ", "\"\\ud800\"", "\"é\"",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
    ])
    func thePrinterTakesWhatRawJSONTakes(_ text: String) {
        let taken = (try? RawJSON(validating: text)) != nil
        #expect((formatted(text) != nil) == taken, "\(text.prefix(40).debugDescription)")
    }

    @Test func nestingPastTheLimitIsShownAsSentNotRecursedInto() {
        let depth = JSONPrettyPrinter.maximumDepth
        #expect(formatted(String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)) != nil)
        #expect(formatted(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)) == nil)
        #expect(formatted(String(repeating: "[", count: 1_000_000)) == nil)
    }

    @Test func jsonIsKnownByItsContentType() {
        for type in ["application/json", "Application/JSON; charset=utf-8", "application/problem+json", "text/json"] {
            #expect(PrettyStyle.isJSON(contentType: type), "\(type)")
        }
        for type in ["text/plain", "application/jsonl", "application/x-ndjson", "image/svg+xml", ""] {
            #expect(!PrettyStyle.isJSON(contentType: type), "\(type)")
        }
        #expect(!PrettyStyle.isJSON(contentType: nil))
    }
}
