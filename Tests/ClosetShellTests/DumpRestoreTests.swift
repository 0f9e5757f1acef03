import ClosetShell
import Foundation
import TestSupport
import Testing

/// Issue 25, item 2: a dump restores all or nothing: it says `.bail on` itself, so a restore
/// that meets a missing picture keeps none of it, and no later error suggests `$c2` for `$c1`.
@Suite struct DumpRestoreTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ProcessTests.binary)))
    func aDumpThatFailsHalfWayRestoresNothing() throws {
        let folder = NSTemporaryDirectory() + "closet-restore-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let knit = repositoryRoot + "/Tests/Golden/images/fixtures/knit.png"
        let boots = repositoryRoot + "/Tests/Golden/images/fixtures/boots.jpg"
        let seeded = try ProcessTests().run([
            "--store", folder + "/a", "-c", "add clothes category=top season=fall image=\(knit)",
            "-c", "add clothes category=shoes season=fall image=\(boots)", "-c", "list clothes",
            "-c", "add style top=@1 shoes=@2",
        ])
        #expect(seeded.status == 0, "\(seeded.err)")
        let dumped = try ProcessTests().run([
            "--store", folder + "/a", "dump", "--output", folder + "/d.closet", "--images", folder + "/pictures",
        ])
        #expect(dumped.status == 0, "\(dumped.err)")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: folder + "/pictures").sorted()
        #expect(pictures.count == 2)
        try FileManager.default.removeItem(atPath: folder + "/pictures/" + pictures[1])

        let restored = try ProcessTests().run(["--store", folder + "/b", "run", folder + "/d.closet"])
        #expect(restored.status == 1)
        #expect(restored.err.contains("cannot read"), "\(restored.err)")
        #expect(restored.err.contains("stopped at its first error (bail); nothing of it was kept"), "\(restored.err)")
        #expect(!restored.err.contains("did you mean '$c"), "\(restored.err)")
        let counted = try ProcessTests().run([
            "--store", folder + "/b", "--format", "json", "-c", "count clothes", "-c", "count styles",
        ])
        #expect(counted.out == "{\"count\":0}\n{\"count\":0}\n", "\(counted.err)")
    }

    @Test func anUnknownNumberedVariableIsNotOfferedItsNeighbour() {
        let harness = Harness(format: .table)
        #expect(harness.run("let $c2 = add clothes category=top season=fall"))
        let error = harness.error("add style top=$c1")
        #expect(error.contains("unknown variable '$c1'") && !error.contains("$c2"), "\(error)")
        // A name without a number still gets its near neighbour.
        #expect(harness.run("let $knit = add clothes category=top season=fall"))
        let near = harness.error("add style top=$knot")
        #expect(near.contains("did you mean '$knit'"), "\(near)")
    }
}
