import Foundation

/// The last JPEGs decoded at an eighth of their size (the check an added picture passes, a
/// thumbnail), kept for the drawings that usually follow in the same session: `add … image=`,
/// then `list` with its thumbnails, then `show` decode a photo once, not three times (djpeg's
/// one decoding is what the bench pairs it with). Bounded (16 MB of pixels and file bytes, 32
/// pictures); found by the bytes themselves, compared whole, so another picture is never taken
/// for one kept.
final class EighthScaleDecodes: @unchecked Sendable {
    static let shared = EighthScaleDecodes()
    /// What the kept pictures may take, their pixels and the file bytes each is found by (an
    /// entry holds both), and how many are kept.
    static let costLimit = 16 << 20
    static let countLimit = 32

    struct Entry {
        var bytes: [UInt8]
        /// The picture's own size and whether its orientation turns it: what decides the scale
        /// another drawing would decode it at.
        var width: Int
        var height: Int
        var turned: Bool
        var bitmap: Bitmap
    }

    /// Newest last.
    private var entries: [Entry] = []
    private var cost = 0
    private let lock = NSLock()

    /// The picture kept for these bytes, if any.
    func find(_ bytes: [UInt8]) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.lastIndex(where: { $0.bytes.count == bytes.count && $0.bytes == bytes }) else {
            return nil
        }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry
    }

    func keep(_ entry: Entry) {
        guard Self.cost(of: entry) <= Self.costLimit / 4 else { return }
        lock.lock()
        defer { lock.unlock() }
        if let index = entries.firstIndex(where: { $0.bytes.count == entry.bytes.count && $0.bytes == entry.bytes }) {
            cost -= Self.cost(of: entries.remove(at: index))
        }
        entries.append(entry)
        cost += Self.cost(of: entry)
        while cost > Self.costLimit || entries.count > Self.countLimit, !entries.isEmpty {
            cost -= Self.cost(of: entries.removeFirst())
        }
    }

    static func cost(of entry: Entry) -> Int { entry.bitmap.pixels.count + entry.bytes.count }
}
