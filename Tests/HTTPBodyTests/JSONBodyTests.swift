import Foundation
import HTTPBody
import HTTPBodyTesting
import Testing

@Suite struct JSONBodyTests {
    struct Address: Codable, Sendable {
        var city: String
        var postalCode: String
    }

    struct Profile: Codable, Sendable {
        var name: String
        var age: Int
        var tags: [String]
        var address: Address
        var isAdmin: Bool
    }

    struct Event: Codable, Sendable {
        var eventName: String
        var startsAt: Date
    }

    struct Blanks: Codable, Sendable {
        var text: String
        var list: [Int]
        var map: [String: String]
        var missing: String?
    }

    struct Item: Codable, Sendable {
        var name: String
        var price: Double
    }

    struct Cart: Codable, Sendable {
        var items: [Item]
    }

    private let profile = Profile(
        name: "Zoë Åström 🚀", age: 42, tags: ["swift", "日本語"],
        address: Address(city: "Tromsø", postalCode: "9008"), isAdmin: false
    )
    private let launch = Event(eventName: "launch", startsAt: Date(timeIntervalSince1970: 1_700_000_000))

    @Test func encodesNestedUnicodeValueWithSortedKeys() async throws {
        let body = try RequestBody.json(profile)
        #expect(body.contentType == .json)
        expectGolden(try await EncoderFixtures.post(body), named: "profile.http")
    }

    @Test func encodesWithSnakeCaseKeysAndISO8601Dates() async throws {
        let encoder = JSONEncoder.deterministic
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        expectGolden(try await EncoderFixtures.post(try .json(launch, encoder: encoder)), named: "snake-iso8601.http")
    }

    @Test func encodesDatesAsSecondsAndMilliseconds() async throws {
        let encoder = JSONEncoder.deterministic
        encoder.dateEncodingStrategy = .secondsSince1970
        expectGolden(try await EncoderFixtures.post(try .json(launch, encoder: encoder)), named: "seconds.http")
        encoder.dateEncodingStrategy = .millisecondsSince1970
        expectGolden(try await EncoderFixtures.post(try .json(launch, encoder: encoder)), named: "milliseconds.http")
    }

    @Test func encodesPrettyPrintedWhenAsked() async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        expectGolden(try await EncoderFixtures.post(try .json(profile.address, encoder: encoder)), named: "pretty.http")
    }

    @Test func encodesEmptyValues() async throws {
        let blanks = Blanks(text: "", list: [], map: [:], missing: nil)
        expectGolden(try await EncoderFixtures.post(try .json(blanks)), named: "blanks.http")
        expectGolden(try await EncoderFixtures.post(try .json(String?.none)), named: "null.http")
    }

    @Test func escapesReservedCharactersInStrings() async throws {
        let text = "quote \" backslash \\ slash / newline \n tab \t bell \u{07} <&>"
        expectGolden(try await EncoderFixtures.post(try .json(["text": text])), named: "escapes.http")
    }

    @Test func keepsRawNumbersDigitForDigit() async throws {
        var object = JSONObject()
        object["id"] = .raw(try RawJSON(validating: "9007199254740993"))
        object["ratio"] = .raw(try RawJSON(validating: "0.1"))
        object["huge"] = .raw(try RawJSON(validating: "1.5e300"))
        object["digits"] = .raw(try RawJSON(validating: "123456789012345678901234567890"))
        object["negative"] = .raw(try RawJSON(validating: "-0.0E-7"))
        object["title"] = .string("Hello")
        let body = RequestBody.json(object)
        #expect(body.contentType == .json)
        expectGolden(try await EncoderFixtures.post(body), named: "raw-numbers.http")
    }

    @Test func keepsNestedRawJSONAsWrittenInsideAndTrimsOutside() async throws {
        var object = JSONObject()
        object["tags"] = .raw(try RawJSON(validating: "  [1, \"two\" ,{\"3\" : null}]\n"))
        object["meta"] = .raw(try RawJSON(validating: "{\"ok\":true,\"e\":\"\\u00e9\\ud83d\\ude80\"}"))
        object["flag"] = .raw(try RawJSON(validating: "false"))
        expectGolden(try await EncoderFixtures.post(.json(object)), named: "raw-nested.http")
    }

    @Test func escapesObjectFieldNamesAndStrings() async throws {
        var object = JSONObject()
        object["naïve \"key\""] = .string("line\nbreak\u{01} and 🚀 and \\")
        object[""] = .string("")
        expectGolden(try await EncoderFixtures.post(.json(object)), named: "object-escapes.http")
        expectGolden(try await EncoderFixtures.post(.json(JSONObject())), named: "object-empty.http")
    }

    @Test func settingAFieldAgainReplacesItInPlace() throws {
        var object = JSONObject()
        object["a"] = .string("1")
        object["b"] = .string("2")
        object["a"] = .raw(try RawJSON(validating: "3"))
        #expect(object.description == #"{"a":3,"b":"2"}"#)
        object["a"] = nil
        #expect(object.description == #"{"b":"2"}"#)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoubleNamesItsCodingPath(_ price: Double) throws {
        let cart = Cart(items: [Item(name: "ok", price: 1), Item(name: "bad", price: price)])
        let error = #expect(throws: JSONBodyError.self) { try RequestBody.json(cart) }
        #expect(error?.code == .invalidValue)
        #expect(error?.location == "items[1].price")
        #expect(error?.description.contains("items[1].price") == true)
    }

    @Test(arguments: [
        "", " ", "tru", "nul", "[1,]", "{\"a\":1,}", "{'a':1}", "{\"a\" 1}", "{a:1}", "01", "-", "1.", ".5", "+1",
        "1e", "1e+", "NaN", "Infinity", "\"tab\there\"", "\"bad \\x escape\"", "\"\\u12\"",
        "\"\\ud8\"", "\"unterminated", "[1] [2]", "// comment\n1", "[1 2]", "{\"a\":1 \"b\":2}", "\u{FEFF}1",
    ])
    func rejectsInvalidRawJSON(_ text: String) {
        let error = #expect(throws: JSONBodyError.self) { try RawJSON(validating: text) }
        #expect(error?.code == .invalidRawJSON)
        #expect(error?.description.hasPrefix("Invalid JSON at line ") == true)
    }

    @Test(arguments: [
        "0", "-0", "1E+2", "0.5e-3", "true", "null", "\"\"", "[]", "{}", "[[[]]]",
        "{\"a\":[1,{\"b\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"}]}", "\"😀 é\"",
        // Lone surrogates: RFC 8259's grammar allows any \uXXXX (section 7).
        "\"\\ud800\"", "\"\\udc00\"", "\"\\udc00\\ud800x\"", "\"\\ud83d\\ude00\"",
    ])
    func acceptsValidRawJSONAsWritten(_ text: String) throws {
        #expect(try RawJSON(validating: "\n\t \(text) \r\n").text == text)
    }

    @Test func invalidRawJSONNamesLineAndColumn() {
        let error = #expect(throws: JSONBodyError.self) { try RawJSON(validating: "{\n  \"a\": 1,\n  \"b\": 01\n}") }
        #expect(error?.location == "line 3, column 9")
        #expect(error?.description.contains("leading zero") == true)
    }

    @Test func rejectsNestingDeeperThanTheLimit() throws {
        #expect(throws: JSONBodyError.self) {
            try RawJSON(validating: String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
        }
        let deepButAllowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try RawJSON(validating: deepButAllowed).text == deepButAllowed)
    }
}
