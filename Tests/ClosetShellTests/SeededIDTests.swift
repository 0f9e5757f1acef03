import ClosetCore
import Foundation
import TestSupport
import Testing

/// Seeded ids repeat from one process to the next: a new row must never take a stored id.
@Suite struct SeededIDTests {
    @Test func twoProcessesWithTheSameSeedAddTwoClothes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let store = NSTemporaryDirectory() + "closet-seeded-\(UUID().uuidString)"
        for description in ["first", "second"] {
            let added = try ProcessTests().run([
                "--store", store, "--deterministic", "--seed", "5", "-c",
                "add clothes category=top season=fall description=\(description)",
            ])
            #expect(added.status == 0, "\(added.err)")
        }
        let listed = try ProcessTests().run(["--store", store, "--format", "csv", "-c", "list clothes sort=old"])
        #expect(
            listed.out.components(separatedBy: "\r\n").dropFirst().map {
                $0.components(separatedBy: ",").dropFirst(4).first ?? ""
            }.filter { !$0.isEmpty } == ["first", "second"])
    }
}
