import ClosetCore
import ClosetPictures

/// The one rule for bytes closet takes as a picture (an `image=` file, an upload, an import's
/// picture, a picture a cache keeps): a PNG or JPEG whose structure reads (`ImageHeader`) and
/// whose pixels decode. A header that names a size and nothing after it, or scan data that
/// stops half-way, is refused here, before anything is stored or cached.
public enum PictureBytes {
    /// What is wrong with bytes that are not a picture, in one line.
    public struct Problem: Error, Sendable {
        public var message: String
    }

    public static func inspect(_ bytes: [UInt8]) throws(Problem) -> ImageInfo {
        let info = try inspectStructure(bytes)
        do {
            // Damage is found as a decode finds it; the pixels are not made (a PNG) or made at
            // 1/8 (a JPEG): only whether they decode is kept.
            try PictureDecoder.check(bytes)
        } catch {
            throw Problem(message: error.message)
        }
        return info
    }

    /// The structure alone (what closet kept before pictures had to decode): for restoring.
    public static func inspectStructure(_ bytes: [UInt8]) throws(Problem) -> ImageInfo {
        do {
            return try ImageHeader.inspect(bytes)
        } catch {
            throw Problem(message: error.message)
        }
    }

    /// Whether the bytes are a picture by that rule.
    public static func decodes(_ bytes: [UInt8]) -> Bool { (try? inspect(bytes)) != nil }
}
