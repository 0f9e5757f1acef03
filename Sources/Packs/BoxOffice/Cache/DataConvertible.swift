import ClosetCore
import Foundation

/// A value the disk tier can write and read back (reference §2.4).
public protocol DataConvertible {
    func toData() throws -> Data
    static func fromData(_ data: Data) throws -> Self
    static var empty: Self { get }
}

public enum DataConvertError: Error, Equatable {
    case cannotConvertToData
    case cannotConvertFromData
}

/// A poster: the picture's bytes, checked to be a PNG or JPEG (the app's `UIImage`).
public struct PosterImage: DataConvertible, Sendable, Equatable {
    public var bytes: [UInt8]
    public var info: ImageInfo?

    public init(bytes: [UInt8], info: ImageInfo?) {
        self.bytes = bytes
        self.info = info
    }

    /// The bytes, if they are a picture.
    public static func decode(_ bytes: [UInt8]) -> PosterImage? {
        guard bytes.count <= ImageHeader.maximumBytes, var info = try? ImageHeader.inspect(bytes) else { return nil }
        info.checksum = Checksum.crc32(bytes)
        return PosterImage(bytes: bytes, info: info)
    }

    public func toData() throws -> Data {
        guard info != nil, !bytes.isEmpty else { throw DataConvertError.cannotConvertToData }
        return Data(bytes)
    }

    public static func fromData(_ data: Data) throws -> PosterImage {
        guard let image = decode([UInt8](data)) else { throw DataConvertError.cannotConvertFromData }
        return image
    }

    public static var empty: PosterImage { PosterImage(bytes: [], info: nil) }
}

extension String: DataConvertible {
    public func toData() throws -> Data { Data(utf8) }
    public static func fromData(_ data: Data) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else { throw DataConvertError.cannotConvertFromData }
        return text
    }
    public static var empty: String { "" }
}
