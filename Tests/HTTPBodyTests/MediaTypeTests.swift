import HTTPBody
import Testing

@Suite struct MediaTypeTests {
    @Test func parsesParametersAndQuotedValues() throws {
        let type = try #require(MediaType(#"Text/Plain; Charset="utf-8"; x="a\"b""#))
        #expect(type.essence == "text/plain")
        #expect(type[parameter: "charset"] == "utf-8")
        #expect(type[parameter: "x"] == #"a"b"#)
        #expect(type.description == #"text/plain; charset=utf-8; x="a\"b""#)
    }

    @Test func rejectsMalformedTypes() {
        #expect(MediaType("text") == nil)
        #expect(MediaType("text/") == nil)
        #expect(MediaType("text/plain; charset") == nil)
        #expect(MediaType("a b/c") == nil)
    }
}
