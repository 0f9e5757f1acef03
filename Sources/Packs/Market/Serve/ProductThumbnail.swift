import ClosetCore
import ClosetPictures
import Foundation

/// `/thumbnails/<name>`: a product's picture at the size the list screen's cell shows it, not
/// the picture itself. The cell's image is at most about 70 points a side; at three pixels a
/// point that is 200 pixels for the longer side. A picture already that small is given as
/// stored (never enlarged); a larger one is decoded, reduced by area averaging (EXIF
/// orientation applied), and encoded again in its own format (a JPEG at quality 85). Each is
/// made once and kept, by its stored name, in a cache shared by the server's workers (bounded
/// by bytes); a picture that does not decode is given as stored.
enum ProductThumbnail {
    static let longestSide = 200
    static let cacheBytes = 32 << 20

    nonisolated(unsafe) private static let cache = LRUCache<[UInt8]>(costLimit: cacheBytes) { $0.count }
    private static let lock = NSLock()

    /// The thumbnail of the stored picture `name`, whose bytes `stored` reads.
    static func bytes(named name: String, stored: () -> [UInt8]?) -> [UInt8]? {
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
    static func thumbnail(of bytes: [UInt8]) -> [UInt8] {
        guard let info = try? ImageHeader.inspect(bytes), max(info.width, info.height) > longestSide,
            let bitmap = try? PictureDecoder.decode(bytes)
        else { return bytes }
        let scale = Double(longestSide) / Double(max(bitmap.width, bitmap.height))
        guard scale < 1 else { return bytes }
        let small = bitmap.scaled(
            toWidth: max(1, Int((Double(bitmap.width) * scale).rounded())),
            height: max(1, Int((Double(bitmap.height) * scale).rounded())))
        return info.format == .png ? PNGEncoder.encode(small) : JPEGEncoder.encode(small, quality: 85)
    }
}
