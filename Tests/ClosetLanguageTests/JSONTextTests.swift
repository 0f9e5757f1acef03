import ClosetLanguage
import Foundation
import Testing

/// JSON string literals: what a JSON parser reads back is the text, and the escapes are the
/// ones closet has always written (goldens pin them byte for byte).
@Suite struct JSONTextTests {
    @Test func aLiteralReadsBackAsTheText() throws {
        var samples = [
            "", "plain", "니트 \"quoted\"", "back\\slash", "tab\there", "line\nbreak\r", "\u{08}\u{0C}\u{0}\u{1F}\u{7F}",
            "🙂 emoji", "mixed \u{1} 한글 \\ \"", "/slashes/stay/",
        ]
        var seed: UInt64 = 3
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<12 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let pick = Int(seed >> 33) % 6
                let scalar: Unicode.Scalar =
                    switch pick {
                    case 0: Unicode.Scalar(UInt8(seed >> 40 & 0x1F))
                    case 1: "\""
                    case 2: "\\"
                    case 3: Unicode.Scalar(0xAC00 + UInt32(seed >> 50 & 0xFF))!
                    default: Unicode.Scalar(0x20 + UInt8(seed >> 45 & 0x5F))
                    }
                text.unicodeScalars.append(scalar)
            }
            samples.append(text)
        }
        for text in samples {
            let literal = JSONText.string(text)
            let decoded =
                try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
            #expect(decoded == text, "\(literal)")
        }
        #expect(JSONText.string("a\"b\\c\nd\u{1}é") == #""a\"b\\c\nd\u0001é""#)
        #expect(JSONText.string("\u{08}\u{0C}\t\r") == #""\b\f\t\r""#)
    }

    /// Issue 45, item 3: JSON indented for a terminal reads back as the same value, strings
    /// (braces, commas and escapes inside them) untouched, empty lists and objects kept whole.
    @Test func prettyJSONReadsBackAsTheSameValue() throws {
        let compact =
            #"[{"id":1,"text":"a {b}, [c]: \"d\"","empty":[],"none":{},"nested":{"list":[1,2.5,null,true]}},{"id":2}]"#
        let pretty = JSONText.pretty(compact)
        #expect(pretty.hasPrefix("[\n  {\n    \"id\": 1,\n"))
        #expect(pretty.contains(#""text": "a {b}, [c]: \"d\"""#))
        #expect(pretty.contains(#""empty": [],"#) && pretty.contains(#""none": {},"#))
        let read = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? NSArray
        let expected = try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? NSArray
        #expect(read == expected && read != nil)
        #expect(JSONText.pretty("{\"count\":3}\n") == "{\n  \"count\": 3\n}\n")
    }
}
