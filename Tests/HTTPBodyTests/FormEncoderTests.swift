import Foundation
import HTTPBody
import HTTPBodyTesting
import Testing

@Suite struct FormEncoderTests {
    struct SignUp: Encodable {
        var userName: String
        var email: String
        var age: Int
        var acceptsTerms: Bool
    }

    struct Tagged: Encodable {
        var name: String
        var tags: [String]
        var matrix: [[Int]]
    }

    struct Address: Encodable {
        var street: String
        var city: String
    }

    struct Order: Encodable {
        var id: Int
        var shipping: Address
        var lines: [Line]
        var attributes: [String: String]
    }

    struct Line: Encodable {
        var sku: String
        var quantity: Int
    }

    struct Flags: Encodable {
        var enabled: Bool
        var archived: Bool
    }

    struct Stamp: Encodable {
        var at: Date
    }

    struct Blob: Encodable {
        var bytes: Data
    }

    struct Keys: Encodable {
        var userID: Int
        var myURLValue: String
        var html5Parser: Bool
        var plain: String
    }

    struct Optionals: Encodable {
        var first: String
        var middle: String?
        var last: String?
        var count: Int?
    }

    struct Texts: Encodable {
        var greeting: String
        var symbols: String
    }

    struct Empties: Encodable {
        var text: String
        var list: [String]
        var map: [String: Int]
    }

    private let signUp = SignUp(userName: "jane", email: "jane@example.com", age: 33, acceptsTerms: true)
    private let tagged = Tagged(name: "kit", tags: ["a", "b c"], matrix: [[1, 2], [3]])
    private let stamp = Stamp(at: Date(timeIntervalSince1970: 1_700_000_000.123))

    private func post(_ value: some Encodable, _ encoder: URLEncodedFormEncoder = .init()) async throws -> [UInt8] {
        try await EncoderFixtures.post(try .form(value, encoder: encoder))
    }

    @Test func encodesFlatStructInDeclarationOrder() async throws {
        let body = try RequestBody.form(signUp)
        #expect(body.contentType == .formURLEncoded)
        expectGolden(try await EncoderFixtures.post(body), named: "flat.http")
    }

    @Test func sortsKeysWhenAsked() async throws {
        expectGolden(try await post(signUp, .init(keyOrdering: .sorted)), named: "sorted.http")
    }

    @Test func encodesArraysWithEveryStrategy() async throws {
        expectGolden(try await post(tagged, .init(arrayEncoding: .brackets)), named: "brackets.http")
        expectGolden(try await post(tagged, .init(arrayEncoding: .indexInBrackets)), named: "indexed.http")
        expectGolden(try await post(tagged, .init(arrayEncoding: .noBrackets)), named: "repeated.http")
    }

    @Test func encodesNestedObjectsWithBracketsAndSortsDictionaries() async throws {
        let order = Order(
            id: 7,
            shipping: Address(street: "1 Main St", city: "Oslo"),
            lines: [Line(sku: "A-1", quantity: 2), Line(sku: "B/2", quantity: 1)],
            attributes: ["zeta": "last", "alpha": "first", "mid": "middle"]
        )
        expectGolden(try await post(order), named: "nested.http")
        expectGolden(try await post(order, .init(arrayEncoding: .indexInBrackets, keyOrdering: .sorted)), named: "nested-sorted.http")
    }

    @Test func encodesBoolsWithEveryStrategy() async throws {
        let flags = Flags(enabled: true, archived: false)
        expectGolden(try await post(flags, .init(boolEncoding: .numeric)), named: "numeric.http")
        expectGolden(try await post(flags, .init(boolEncoding: .literal)), named: "literal.http")
    }

    @Test func encodesDatesWithEveryStrategy() async throws {
        expectGolden(try await post(stamp, .init(dateEncoding: .secondsSince1970)), named: "seconds.http")
        expectGolden(try await post(stamp, .init(dateEncoding: .millisecondsSince1970)), named: "milliseconds.http")
        expectGolden(try await post(stamp, .init(dateEncoding: .iso8601)), named: "iso8601.http")
        expectGolden(try await post(stamp, .init(dateEncoding: .deferredToDate)), named: "deferred.http")
        let custom = URLEncodedFormEncoder.DateEncoding.custom { "day-\(Int($0.timeIntervalSince1970) / 86_400)" }
        expectGolden(try await post(stamp, .init(dateEncoding: custom)), named: "custom.http")
    }

    @Test func encodesDataWithEveryStrategy() async throws {
        let blob = Blob(bytes: Data([0x00, 0xFB, 0xFF, 0x3E, 0x3F]))
        expectGolden(try await post(blob, .init(dataEncoding: .base64)), named: "base64.http")
        expectGolden(try await post(blob, .init(dataEncoding: .deferredToData)), named: "deferred.http")
        let hex = URLEncodedFormEncoder.DataEncoding.custom { $0.map { String(format: "%02x", $0) }.joined() }
        expectGolden(try await post(blob, .init(dataEncoding: hex)), named: "hex.http")
    }

    @Test func transformsKeysWithEveryStrategy() async throws {
        let keys = Keys(userID: 1, myURLValue: "u", html5Parser: true, plain: "p")
        expectGolden(try await post(keys, .init(keyEncoding: .useDefaultKeys)), named: "default.http")
        expectGolden(try await post(keys, .init(keyEncoding: .convertToSnakeCase)), named: "snake.http")
        expectGolden(try await post(keys, .init(keyEncoding: .convertToKebabCase)), named: "kebab.http")
        expectGolden(try await post(keys, .init(keyEncoding: .capitalized)), named: "capitalized.http")
        expectGolden(try await post(keys, .init(keyEncoding: .uppercased)), named: "uppercased.http")
        expectGolden(try await post(keys, .init(keyEncoding: .lowercased)), named: "lowercased.http")
        expectGolden(try await post(keys, .init(keyEncoding: .custom { "x-" + $0 })), named: "custom.http")
    }

    @Test func leavesDictionaryKeysUntransformed() throws {
        let text = try URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase).encode(["someKey": ["innerKey": 1]])
        #expect(text == "someKey%5BinnerKey%5D=1")
    }

    @Test func encodesNilWithEveryStrategy() async throws {
        let value = Optionals(first: "Ada", middle: nil, last: "Lovelace", count: nil)
        expectGolden(try await post(value, .init(nilEncoding: .dropKey)), named: "drop-key.http")
        expectGolden(try await post(value, .init(nilEncoding: .dropValue)), named: "drop-value.http")
        expectGolden(try await post(value, .init(nilEncoding: .keyOnly)), named: "key-only.http")
        expectGolden(try await post(value, .init(nilEncoding: .null)), named: "null.http")
    }

    @Test func encodesSpacesWithEveryStrategy() async throws {
        let texts = Texts(greeting: "hello big world", symbols: "a+b c")
        expectGolden(try await post(texts, .init(spaceEncoding: .percentEscaped)), named: "percent.http")
        expectGolden(try await post(texts, .init(spaceEncoding: .plusReplaced)), named: "plus.http")
    }

    @Test func percentEncodesReservedAndUnicodeCharacters() async throws {
        let texts = Texts(greeting: "Grüße, 世界 🚀", symbols: "!#$&'()*+,/:;=?@[]%\"<>\\^`{|}-._~")
        expectGolden(try await post(texts), named: "reserved.http")
    }

    @Test func encodesEmptyValues() async throws {
        expectGolden(try await post(Empties(text: "", list: [], map: [:])), named: "empties.http")
        expectGolden(try await post([String: String]()), named: "empty-dictionary.http")
    }

    @Test func encodesPairsInGivenOrderOrSorted() async throws {
        let pairs = [("z", "last one"), ("a[]", "1"), ("é", "ü"), ("a[]", "2"), ("", "")]
        let body = RequestBody.form(pairs)
        #expect(body.contentType == .formURLEncoded)
        expectGolden(try await EncoderFixtures.post(body), named: "given.http")
        expectGolden(try await EncoderFixtures.post(.form(pairs, encoder: .init(keyOrdering: .sorted, spaceEncoding: .plusReplaced))), named: "sorted.http")
    }

    @Test func encodesOnlyUnreservedCharactersBare() throws {
        let everyASCII = String(decoding: (0x20..<0x7F).map { UInt8($0) }, as: UTF8.self)
        let text = URLEncodedFormEncoder().encode([("k", everyASCII)])
        let value = text.dropFirst(2)
        var bare = ""
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == "%" {
                index = value.index(index, offsetBy: 3)
            } else {
                bare.append(value[index])
                index = value.index(after: index)
            }
        }
        #expect(bare == "-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    }

    @Test func sameDictionaryEncodesTheSameEveryTime() throws {
        let big = Dictionary(uniqueKeysWithValues: (0..<200).map { ("key\($0)", $0) })
        let first = try URLEncodedFormEncoder().encode(big)
        for _ in 0..<5 {
            #expect(try URLEncodedFormEncoder().encode(Dictionary(uniqueKeysWithValues: big.shuffled())) == first)
        }
        #expect(first.hasPrefix("key0=0&key1=1&key10=10&key100=100&"))
    }

    @Test func topLevelSingleValueIsRejected() {
        let error = #expect(throws: URLEncodedFormError.self) { try URLEncodedFormEncoder().encode(42) }
        #expect(error?.code == .topLevelNotKeyed)
        #expect(error?.description.contains("top-level value of type Int") == true)
        let listError = #expect(throws: URLEncodedFormError.self) { try URLEncodedFormEncoder().encode(["a", "b"]) }
        #expect(listError?.code == .topLevelNotKeyed)
        #expect(listError?.description.contains("a list") == true)
    }

    enum Color: String, Encodable { case red, green }

    struct Filtered: Encodable {
        var query: String
        var filters: [Color: Int]
    }

    @Test func nonStringDictionaryKeyNamesTheKeyPath() {
        let error = #expect(throws: URLEncodedFormError.self) {
            try URLEncodedFormEncoder().encode(Filtered(query: "q", filters: [.red: 1]))
        }
        #expect(error?.code == .nonStringKey)
        #expect(error?.keyPath == "filters")
        #expect(error?.description.contains("dictionary at filters has keys of type Color") == true)
    }

    @Test func intDictionaryKeysAreWrittenAsText() throws {
        #expect(try URLEncodedFormEncoder().encode(["ids": [2: "b", 10: "a"]]) == "ids%5B10%5D=a&ids%5B2%5D=b")
    }

    struct Priced: Encodable {
        var lines: [Line]
        var total: Double
        struct Line: Encodable { var price: Double }
    }

    @Test(arguments: [Double.nan, .infinity])
    func nonFiniteNumberNamesTheKeyPath(_ number: Double) {
        let error = #expect(throws: URLEncodedFormError.self) {
            try URLEncodedFormEncoder().encode(Priced(lines: [.init(price: 1), .init(price: number)], total: 1))
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.keyPath == "lines[1][price]")
        #expect(error?.description.contains("lines[1][price]") == true)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "no calendar" }
    }

    @Test func failingCustomStrategyNamesTheKeyPath() {
        let encoder = URLEncodedFormEncoder(dateEncoding: .custom { _ in throw Failure() })
        let error = #expect(throws: URLEncodedFormError.self) { try encoder.encode(["event": stamp]) }
        #expect(error?.code == .strategyFailed)
        #expect(error?.keyPath == "event[at]")
        #expect(error?.description.contains("no calendar") == true)
    }
}
