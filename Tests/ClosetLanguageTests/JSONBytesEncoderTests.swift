import ClosetLanguage
import Foundation
import Testing

/// `JSONBytesEncoder` writes what Foundation's `JSONEncoder` writes for the same model (the same
/// values, keys in the model's order), for nesting of every kind a synthesized `Codable` makes.
@Suite struct JSONBytesEncoderTests {
    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    struct Empty: Codable, Equatable {}

    struct Outer: Codable, Equatable {
        var id: Int
        var text: String
        var flag: Bool
        var missing: Int?
        var present: Int?
        var inner: Inner
        var list: [Inner]
        var grid: [[Int]]
        var empties: [Empty]
        var nothing: [String]
        var byName: [String: Int]
        var unsigned: UInt8
        var last: String

        enum CodingKeys: String, CodingKey {
            case id, text, flag, missing, present, inner, list, grid, empties, nothing
            case byName = "by_name"
            case unsigned, last
        }
    }

    static let sample = Outer(
        id: -42, text: "quote \" backslash \\ newline \n tab \t bell \u{07} 니트 🧥 \u{2028}", flag: true, missing: nil,
        present: 0, inner: Inner(name: "a", tags: [], score: 1.5),
        list: [Inner(name: "b", tags: ["x", "y"], score: nil), Inner(name: "", tags: [""], score: 1_600_000_000.25)],
        grid: [[], [1], [2, 3]], empties: [Empty(), Empty()], nothing: [], byName: ["k": 1], unsigned: 255,
        last: "end")

    @Test func itDecodesToTheSameModel() throws {
        let bytes = try JSONBytesEncoder.encode(Self.sample)
        #expect(try JSONDecoder().decode(Outer.self, from: Data(bytes)) == Self.sample)
    }

    @Test func itWritesWhatJSONEncoderWritesInTheModelsOrder() throws {
        let ours = String(decoding: try JSONBytesEncoder.encode(Self.sample), as: UTF8.self)
        // Key order is the model's: the top level's keys appear in CodingKeys' order.
        let positions = [
            "\"id\"", "\"text\"", "\"flag\"", "\"present\"", "\"inner\"", "\"list\"", "\"by_name\"", "\"last\"",
        ]
        .compactMap { ours.range(of: $0)?.lowerBound }
        #expect(positions.count == 8 && positions == positions.sorted())
        #expect(!ours.contains("\"missing\""))
        #expect(ours.contains(#""grid":[[],[1],[2,3]],"empties":[{},{}],"nothing":[]"#))
        // The same JSON value as Foundation's encoder gives.
        let theirs = try JSONEncoder().encode(Self.sample)
        let a = try JSONSerialization.jsonObject(with: Data(ours.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: theirs) as? NSDictionary
        #expect(a != nil && a == b)
    }

    @Test func aTopLevelArrayAndAScalar() throws {
        #expect(try JSONBytesEncoder.encode([Empty(), Empty()]) == Array("[{},{}]".utf8))
        #expect(try JSONBytesEncoder.encode("a\"b") == Array(#""a\"b""#.utf8))
        #expect(try JSONBytesEncoder.encode([Int?.none, 1]) == Array("[null,1]".utf8))
    }

    @Test func aNumberJSONCannotSayIsRefused() {
        #expect(throws: EncodingError.self) { try JSONBytesEncoder.encode([Double.nan]) }
    }
}
