@testable import ObjectStorage
import Testing

/// The reader of S3's answers, given what hostile or broken servers send.
struct S3XMLReaderTests {
    @Test func readsAListPartsResultWithNamespacesEntitiesAndComments() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Bucket>b</Bucket><Key>a &amp; b &#x263A; &#65;</Key>
              <s3:Part><PartNumber>1</PartNumber><ETag>&quot;abc&quot;</ETag><Size>5</Size></s3:Part>
              <Part><PartNumber>2</PartNumber><ETag><![CDATA["d<e>f"]]></ETag><Size>6</Size></Part>
              <IsTruncated>false</IsTruncated><Empty/>
            </ListPartsResult>
            """
        let root = try S3XMLReader.parse(Array(xml.utf8))
        #expect(root.name == "ListPartsResult")
        #expect(root.text(of: "Key") == "a & b \u{263A} A")
        let parts = root.children(named: "Part")
        #expect(parts.count == 2)
        #expect(parts[0].text(of: "ETag") == "\"abc\"")
        #expect(parts[1].text(of: "ETag") == "\"d<e>f\"")
        #expect(root.child("Empty")?.text == "")
    }

    @Test(arguments: [
        "", "<", "<a>", "<a></b>", "<a>&bogus;</a>", "<a>&#xFFFFFFFF;</a>", "<a>&#xD800;</a>", "<a b=c></a>",
        "<a><!-- unterminated </a>", "<a/>trailing", "<a><![CDATA[x</a>", "<a>&amp</a>", "<?xml", "<a b='x></a>",
    ])
    func refusesBrokenDocuments(_ text: String) {
        #expect(throws: S3XMLReader.Failure.self) { try S3XMLReader.parse(Array(text.utf8)) }
    }

    @Test func refusesNestingDeeperThanItsLimitWithoutRecursingFurther() {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        let error = #expect(throws: S3XMLReader.Failure.self) { try S3XMLReader.parse(Array(deep.utf8)) }
        #expect(error?.description.contains("nested") == true)
    }

    @Test func neverTrapsOnRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("<>/&;#x![]CDATA-?=\"' ab1".utf8)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<length).map { _ in Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator) }
            _ = try? S3XMLReader.parse(bytes)
        }
    }
}
