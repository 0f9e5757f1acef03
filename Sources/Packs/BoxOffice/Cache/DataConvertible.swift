import ClosetCore
import ClosetLanguage
import Foundation

/// A value the disk tier can write and read back (reference §2.4).
protocol DataConvertible {
    func toData() throws -> Data
    static func fromData(_ data: Data) throws -> Self
    static var empty: Self { get }
}

package enum DataConvertError: Error, Equatable {
    case cannotConvertToData
    case cannotConvertFromData
}

/// A poster: the picture's bytes, checked to be a PNG or JPEG (the app's `UIImage`).
package struct PosterImage: DataConvertible, Sendable, Equatable {
    package var bytes: [UInt8]
    package var info: ImageInfo?

    package init(bytes: [UInt8], info: ImageInfo?) {
        self.bytes = bytes
        self.info = info
    }

    /// The bytes, if they are a picture.
    package static func decode(_ bytes: [UInt8]) -> PosterImage? {
        guard bytes.count <= ImageHeader.maximumBytes, var info = try? PictureBytes.inspect(bytes) else { return nil }
        info.checksum = Checksum.crc32(bytes)
        return PosterImage(bytes: bytes, info: info)
    }

    package func toData() throws -> Data {
        guard info != nil, !bytes.isEmpty else { throw DataConvertError.cannotConvertToData }
        return Data(bytes)
    }

    package static func fromData(_ data: Data) throws -> PosterImage {
        guard let image = decode([UInt8](data)) else { throw DataConvertError.cannotConvertFromData }
        return image
    }

    package static var empty: PosterImage { PosterImage(bytes: [], info: nil) }
}

extension String: DataConvertible {
    package func toData() throws -> Data { Data(utf8) }
    package static func fromData(_ data: Data) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else { throw DataConvertError.cannotConvertFromData }
        return text
    }
    package static var empty: String { "" }
}
