import ClosetCore
import ClosetNetwork
import ClosetPictures
import Foundation

/// `closet serve --placeholders`: a picture no recording holds, drawn from what the API's own
/// answer said of it (Unsplash's `width`, `height`, `color` and `blur_hash`), so a feed is never
/// full of holes: its BlurHash decoded (as Unsplash's apps show one while a photo loads), else
/// its colour, at the width its URL asks (`w=`, else 400) in its proportions.
public struct PicturePlaceholder: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `#40261a`.
    public var color: String?
    public var blurHash: String?

    public init(width: Int, height: Int, color: String? = nil, blurHash: String? = nil) {
        self.width = width
        self.height = height
        self.color = color
        self.blurHash = blurHash
    }

    /// The widest placeholder drawn (Unsplash's `regular`).
    static let widest = 1080

    /// The picture for `url`: a JPEG; nil when the size is not a picture's.
    func picture(for url: String) -> [UInt8]? {
        guard width > 0, height > 0 else { return nil }
        let asked = URLComponents(string: url)?.queryItems?.last { $0.name == "w" }?.value.flatMap { Int($0) }
        let shownWidth = min(max(asked ?? 400, 1), Self.widest, BlurHash.maximumSide)
        let shownHeight = min(max(1, shownWidth * height / width), BlurHash.maximumSide)
        if let blurHash, let decoded = BlurHash.decode(blurHash, width: shownWidth, height: shownHeight) {
            return JPEGEncoder.encode(decoded, quality: 80)
        }
        let rgb = color.flatMap(Self.rgb) ?? (128, 128, 128)
        var pixels = [UInt8](repeating: 255, count: shownWidth * shownHeight * 4)
        for at in stride(from: 0, to: pixels.count, by: 4) {
            pixels[at] = rgb.0
            pixels[at + 1] = rgb.1
            pixels[at + 2] = rgb.2
        }
        return JPEGEncoder.encode(Bitmap(width: shownWidth, height: shownHeight, pixels: pixels), quality: 80)
    }

    /// `#rrggbb`; nil for anything else.
    static func rgb(_ text: String) -> (UInt8, UInt8, UInt8)? {
        let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return (UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255))
    }
}
