import Foundation
import Testing

@testable import ClosetCore

@Suite struct IDGeneratorTests {
    /// Ids across many batches (4 KB first, doubling to 64 KB through one open device) are all
    /// different, each a version-4, RFC 4122 variant UUID.
    @Test func randomIdsAreDistinctVersionFourAcrossBatches() {
        let generator = RandomIDGenerator()
        var seen = Set<UUID>()
        for _ in 0..<20_000 {
            let id = generator.next()
            #expect(seen.insert(id).inserted)
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
        // Every byte but the fixed bits varies: no batch is left zero.
        let ids = Array(seen)
        #expect(Set(ids.map(\.uuid.0)).count > 200)
        #expect(Set(ids.map(\.uuid.15)).count > 200)
    }
}
