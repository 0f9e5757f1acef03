import ClosetCore
import Foundation
import Testing

@testable import WardrobePack

/// A record made of some parts only (a listing written as csv makes its data alone) has those
/// parts as the whole record has them, and the others empty.
@Suite struct RecordPartsTests {
    @Test func eachPartIsTheWholeRecordsPart() {
        var random = SystemRandomNumberGenerator()
        for number in 0..<200 {
            let image =
                number % 3 == 0
                ? ImageInfo(format: .png, width: 4, height: 3, bytes: 120, checksum: UInt32(number)) : nil
            let clothes = Clothes(
                id: UUID(), createdAt: Date(timeIntervalSince1970: Double(Int.random(in: 0..<1 << 30, using: &random))),
                image: image, category: ClothesCategory.allCases.randomElement(using: &random)!,
                weatherType: WeatherType.allCases.randomElement(using: &random)!,
                descriptions: ["", "knit", "Navy KNIT 니트", "say \"hi\", twice"].randomElement(using: &random)!)
            let whole = WardrobeRecords.clothes.record(clothes)
            for raw in 0...7 {
                let parts = Record.Parts(rawValue: raw)
                let record = WardrobeRecords.clothes.record(clothes, parts: parts)
                #expect(record.fields == (parts.contains(.fields) ? whole.fields : []))
                #expect(record.data == (parts.contains(.data) ? whole.data : []))
                #expect(record.table == (parts.contains(.table) ? whole.table : []))
            }
        }
    }
}
