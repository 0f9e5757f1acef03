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
}
