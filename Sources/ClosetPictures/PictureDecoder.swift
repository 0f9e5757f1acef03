import ClosetCore

/// A stored picture's bytes to pixels, by what the bytes are (PNG or JPEG, as `ImageHeader`
/// tells them apart), with one message for whatever stops it.
public enum PictureDecoder {
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
    }

    /// `drawnWithin`: the largest the picture will be drawn, when known: a JPEG is then decoded
    /// reduced inside its transform, a PNG reduced as its rows are unfiltered, never smaller
    /// than that (`JPEGDecoder.decode`, `PNGDecoder.decode`).
    public static func decode(_ bytes: [UInt8], drawnWithin box: (width: Int, height: Int)? = nil) throws(Failure)
        -> Bitmap
    {
        if bytes.starts(with: PNGDecoder.signature) {
            do { return try PNGDecoder.decode(bytes, drawnWithin: box) } catch { throw Failure(message: error.message) }
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            do { return try JPEGDecoder.decode(bytes, drawnWithin: box) } catch {
                throw Failure(message: error.message)
            }
        }
        throw Failure(message: "not a PNG or JPEG picture")
    }

    /// The picture made at most `side` pixels on its longer side, proportions kept, each pixel
    /// the area average of what it covers: a PNG reduced as its rows arrive, a JPEG decoded
    /// reduced in its transform then averaged down (an upload's picture).
    public static func decode(_ bytes: [UInt8], fittingIn side: Int) throws(Failure) -> Bitmap {
        if bytes.starts(with: PNGDecoder.signature) {
            do { return try PNGDecoder.decode(bytes, fittingIn: side) } catch { throw Failure(message: error.message) }
        }
        let bitmap = try decode(bytes, drawnWithin: (side, side))
        let longer = max(bitmap.width, bitmap.height)
        guard side > 0, longer > side else { return bitmap }
        return bitmap.areaScaled(
            toWidth: max(1, bitmap.width * side / longer), height: max(1, bitmap.height * side / longer))
    }

    /// Whether the bytes decode, making as little as it takes to know: a PNG's pixels are not
    /// made (`PNGDecoder.check`), a JPEG's every coefficient is read and its samples made at 1/8.
    public static func check(_ bytes: [UInt8]) throws(Failure) {
        if bytes.starts(with: PNGDecoder.signature) {
            do { return try PNGDecoder.check(bytes) } catch { throw Failure(message: error.message) }
        }
        _ = try decode(bytes, drawnWithin: (1, 1))
    }
}
