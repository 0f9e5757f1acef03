import Foundation

/// What a request carries. Bodies are always whole `Data` (Foundation on Linux sends a
/// streamed body both chunked and with a length).
public enum HTTPBody: Sendable, Hashable {
    /// A JSON document (`Content-Type: application/json`).
    case json(Data)
    /// `multipart/form-data`: text fields and files, in order.
    case multipart([MultipartPart])

    /// The bytes on the wire and their content type. A multipart body takes the boundary
    /// given (a random one per request, as browsers do).
    public func encoded(boundary: String) -> (bytes: Data, contentType: String) {
        switch self {
        case .json(let data):
            return (data, "application/json")
        case .multipart(let parts):
            var out = Data()
            for part in parts {
                out.append(Data("--\(boundary)\r\n".utf8))
                var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
                if let filename = part.filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
                out.append(Data((disposition + "\r\n").utf8))
                if let type = part.contentType { out.append(Data("Content-Type: \(type)\r\n".utf8)) }
                out.append(Data("\r\n".utf8))
                out.append(part.data)
                out.append(Data("\r\n".utf8))
            }
            out.append(Data("--\(boundary)--\r\n".utf8))
            return (out, "multipart/form-data; boundary=\(boundary)")
        }
    }

    /// A name or file name inside a part header's quotes (RFC 7578 §4.2, as browsers write
    /// it): `"`, CR and LF percent-encoded, so no name can close the quotes or start a header
    /// line of its own.
    static func quoted(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// The bytes a recording's key digests: a multipart body with a fixed boundary (so the
    /// random one does not change the key) and secret parts blanked.
    package var canonical: Data {
        switch self {
        case .json:
            return encoded(boundary: "").bytes
        case .multipart(let parts):
            let blanked = parts.map { part -> MultipartPart in
                var part = part
                if part.isSecret { part.data = Data() }
                return part
            }
            return HTTPBody.multipart(blanked).encoded(boundary: "closet-canonical-boundary").bytes
        }
    }
}

/// One part of a multipart body: a text field or a file.
public struct MultipartPart: Sendable, Hashable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var data: Data
    public var isSecret: Bool

    public static func field(_ name: String, _ value: String, isSecret: Bool = false) -> MultipartPart {
        MultipartPart(name: name, filename: nil, contentType: nil, data: Data(value.utf8), isSecret: isSecret)
    }

    public static func file(_ name: String, filename: String, contentType: String, data: Data) -> MultipartPart {
        MultipartPart(name: name, filename: filename, contentType: contentType, data: data, isSecret: false)
    }

    /// The field's text, when it is one.
    public var text: String? { filename == nil ? String(data: data, encoding: .utf8) : nil }
}
