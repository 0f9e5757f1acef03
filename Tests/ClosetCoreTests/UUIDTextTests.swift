import Foundation
import Testing

@testable import ClosetCore

/// A UUID formatted by hand reads exactly as Foundation formats it.
@Suite struct UUIDTextTests {
    @Test func itIsFoundationsUUIDString() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.text == id.uuidString)
        }
        let fixed = UUID(uuidString: "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4")!
        #expect(fixed.text == "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4")
    }

    /// Read by hand, a UUID's text gives what Foundation's parser gives for well-formed ids in
    /// either case, and nothing for texts one edit away from one (a character changed, dropped
    /// or added). Foundation's `sscanf` on Linux also takes spaces and signs inside the digits
    /// ("F 906D0E-..."); those are no ids here.
    @Test func itReadsWellFormedIdsOnly() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEFgG-x {}é")
        let wellFormed = try NSRegularExpression(
            pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
        var edited = 0
        for round in 0..<20_000 {
            var text = Array(round.isMultiple(of: 2) ? UUID().uuidString : UUID().uuidString.lowercased())
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: text[Int.random(in: 0..<text.count, using: &generator)] = alphabet.randomElement()!
            case 1: text.remove(at: Int.random(in: 0..<text.count, using: &generator))
            case 2: text.insert(alphabet.randomElement()!, at: Int.random(in: 0...text.count, using: &generator))
            default: break
            }
            let string = String(text)
            let matches = wellFormed.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
            if matches {
                #expect(UUID(text: string) == UUID(uuidString: string), "\(string)")
            } else {
                edited += 1
                #expect(UUID(text: string) == nil, "\(string)")
            }
        }
        #expect(edited > 10_000)
        #expect(UUID(text: "") == nil)
    }
}
