import Foundation
import Testing

@testable import ClosetStore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct UnlinkedFileReleaseTests {
    /// A file of `size` bytes in a folder of its own, every page read once (in the page cache).
    private func makeFile(size: Int) throws -> (folder: String, path: String) {
        let folder = NSTemporaryDirectory() + "closet-release-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let path = folder + "/snapshot"
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    /// Whether any of this process's descriptors names `path` (a file whose name is gone shows
    /// as `path (deleted)`).
    private func isOpen(_ path: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.contains { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name))?.hasPrefix(path)
                ?? false
        }
    }

    private func map(_ path: String) throws -> (memory: UnsafeRawBufferPointer, descriptor: Int32) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        var info = stat()
        fstat(descriptor, &info)
        let address = try #require(mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0))
        try #require(address != MAP_FAILED)
        return (UnsafeRawBufferPointer(start: address, count: Int(info.st_size)), descriptor)
    }

    /// A big file renamed over (no name left) is let go on the release thread; one that still
    /// has a name, or a small one, at once.
    @Test func onlyBigFilesWithoutANameAreHandedOver() throws {
        let big = UnlinkedFileRelease.smallestHandedOver
        let (folder, path) = try makeFile(size: 4 * big)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let named = try map(path)
        #expect(!UnlinkedFileRelease.release(named.memory, descriptor: named.descriptor))
        #expect(!isOpen(path))

        let unnamed = try map(path)
        #expect(unlink(path) == 0)
        #expect(UnlinkedFileRelease.release(unnamed.memory, descriptor: unnamed.descriptor))
        UnlinkedFileRelease.waitUntilIdle()
        #expect(!isOpen(path))

        let (smallFolder, smallPath) = try makeFile(size: big / 2)
        defer { try? FileManager.default.removeItem(atPath: smallFolder) }
        let small = try map(smallPath)
        #expect(unlink(smallPath) == 0)
        #expect(!UnlinkedFileRelease.release(small.memory, descriptor: small.descriptor))
        #expect(!isOpen(smallPath))
    }

    /// A mapped snapshot dropped after its name went is let go by that thread: its descriptor
    /// and mapping are gone once the thread is idle.
    @Test func aMappedFileRenamedOverIsLetGoOnTheReleaseThread() throws {
        let (folder, path) = try makeFile(size: 2 * UnlinkedFileRelease.smallestHandedOver)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = UnlinkedFileRelease.releasedCount
        do {
            let mapped = try #require(try MappedFile.open(path))
            #expect(mapped.memory.last == 7)
            try Data([1]).write(to: URL(fileURLWithPath: folder + "/snapshot.tmp"))
            #expect(rename(folder + "/snapshot.tmp", path) == 0)
            #expect(isOpen(path))
        }
        UnlinkedFileRelease.waitUntilIdle()
        #expect(UnlinkedFileRelease.releasedCount > before)
        #expect(!isOpen(path + " (deleted)"))
    }
}
