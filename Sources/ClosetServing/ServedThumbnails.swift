import ClosetCore
import ClosetPictures
import Foundation

/// Pictures at the size an app's list shows them (`/thumbnails/<name>`), not the pictures
/// themselves: the longer side at most `longestSide` pixels. A picture already that small is
/// given as stored (never enlarged); a larger one is decoded, reduced by area averaging (EXIF
/// orientation applied), and encoded again in its own format (a JPEG at quality 85). Each is
/// made once and kept, by its stored name, in a cache the server's workers share (bounded by
/// bytes); a picture that does not decode is given as stored.
public final class ServedThumbnails: @unchecked Sendable {
    public let longestSide: Int
    private let cache: LRUCache<[UInt8]>
    private let lock = NSLock()

    public init(longestSide: Int, cacheBytes: Int = 32 << 20) {
        self.longestSide = longestSide
        cache = LRUCache<[UInt8]>(costLimit: cacheBytes) { $0.count }
    }

    /// The thumbnail of the stored picture `name`, whose bytes `stored` reads.
    public func bytes(named name: String, stored: () -> [UInt8]?) -> [UInt8]? {
        lock.lock()
        let kept = cache.get(for: name)
        lock.unlock()
        if let kept { return kept }
        guard let original = stored() else { return nil }
        let made = thumbnail(of: original)
        lock.lock()
        cache.store(made, for: name)
        lock.unlock()
        return made
    }

    /// The picture reduced to fit `longestSide` (itself when it already fits, or cannot be read).
    func thumbnail(of bytes: [UInt8]) -> [UInt8] {
        guard let info = try? ImageHeader.inspect(bytes), max(info.width, info.height) > longestSide,
            let bitmap = try? PictureDecoder.decode(bytes, drawnWithin: (longestSide, longestSide))
        else { return bytes }
        // The bitmap may be decoded reduced already (never below the longest side): its own
        // size says the scale left to make.
        let scale = min(1, Double(longestSide) / Double(max(bitmap.width, bitmap.height)))
        let small = bitmap.scaled(
            toWidth: max(1, Int((Double(bitmap.width) * scale).rounded())),
            height: max(1, Int((Double(bitmap.height) * scale).rounded())))
        return info.format == .png ? PNGEncoder.encode(small) : JPEGEncoder.encode(small, quality: 85)
    }
}
