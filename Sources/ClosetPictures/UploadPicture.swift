import ClosetCore

/// A picture as the apps compress one before uploading it (the open market's
/// `compress(target: 300)`, 사랑할개's `jpegData(compressionQuality:)`): a JPEG of about 300 KB
/// (20 % over is accepted). A JPEG already within that is kept as it is (re-encoding would only
/// lose detail); anything else is decoded and encoded again, at the highest quality that fits,
/// then smaller. A picture past `maximumPixels` is refused before it is decoded: a small file
/// can declare a huge bitmap. One larger than `largestSide` is first made that size (decoded
/// reduced, then scaled): a 300 KB JPEG holds a photo of two or three megapixels at best.
public enum UploadPicture {
    public static let target = 300 * 1024
    public static let accepted = target * 12 / 10
    /// 40 megapixels: a phone's largest photos, and about 160 MB decoded.
    public static let maximumPixels = 40_000_000
    public static let largestSide = 2048

    public static func jpeg(_ bytes: [UInt8], _ info: ImageInfo) throws(UploadPictureError) -> [UInt8] {
        if info.format == .jpeg, bytes.count <= accepted { return bytes }
        guard info.width * info.height <= maximumPixels else {
            throw UploadPictureError(reason: "\(info.width)×\(info.height) is more than 40 megapixels")
        }
        let bitmap: Bitmap
        do {
            bitmap = try PictureDecoder.decode(bytes, fittingIn: largestSide)
        } catch {
            throw UploadPictureError(reason: error.message)
        }
        return JPEGEncoder.encode(bitmap, fittingIn: accepted)
    }
}

/// A picture that cannot be made a JPEG to upload: nothing is sent or stored.
public struct UploadPictureError: Error, LocalizedMessage {
    public var reason: String
    public var message: String { "a picture cannot be made a JPEG to upload: \(reason)" }
}
