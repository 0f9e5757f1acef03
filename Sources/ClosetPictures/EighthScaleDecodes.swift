import Foundation

/// The last JPEGs decoded at an eighth of their size (the check an added picture passes, a
/// thumbnail), kept for the drawings that usually follow in the same session: `add … image=`,
/// then `list` with its thumbnails, then `show` decode a photo once, not three times (djpeg's
/// one decoding is what the bench pairs it with). Bounded to a few megabytes; found by the bytes
/// themselves, compared whole, so another picture is never taken for one kept.
final class EighthScaleDecodes: @unchecked Sendable {
    static let shared = EighthScaleDecodes()
    /// What all the kept pictures' pixels may take.
    static let costLimit = 8 << 20

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
        let size = entry.bitmap.pixels.count
        guard size <= Self.costLimit / 4 else { return }
        lock.lock()
        defer { lock.unlock() }
        if let index = entries.firstIndex(where: { $0.bytes == entry.bytes }) {
            cost -= entries.remove(at: index).bitmap.pixels.count
        }
        entries.append(entry)
        cost += size
        while cost > Self.costLimit, !entries.isEmpty { cost -= entries.removeFirst().bitmap.pixels.count }
    }
}
