import Foundation

/// `multipart/form-data` bodies read back (RFC 7578 over RFC 2046), the reverse of
/// `HTTPBody.encoded`: parts between `--boundary` lines, each with its headers (the
/// disposition's `name` and `filename`, percent-decoded as the encoder writes them, and a
/// `Content-Type`). Nil for anything malformed: no closing boundary, a part without a
/// disposition or a name, header lines that do not end.
public enum MultipartParser {
    /// The most parts a body may have: the market takes five pictures and seven fields.
    public static let maximumParts = 64

    /// `boundary=...` of a `multipart/form-data` content type (quoted or not).
    public static func boundary(of contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = pieces.first, first.lowercased() == "multipart/form-data" else { return nil }
        // The last one: curl adds its own after one a caller set, and writes the body with it.
        guard let piece = pieces.dropFirst().last(where: { $0.lowercased().hasPrefix("boundary=") }) else { return nil }
        var value = String(piece.dropFirst("boundary=".count))
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        // RFC 2046: 1 to 70 characters.
        return (1...70).contains(value.utf8.count) ? value : nil
    }

    public static func parts(of body: Data, boundary: String) -> [MultipartPart]? {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        // The first delimiter may follow a preamble; each next one follows CRLF.
        guard var at = find(delimiter, in: bytes, from: 0) else { return nil }
        at += delimiter.count
        var parts: [MultipartPart] = []
        let separator = [13, 10] + delimiter
        while true {
            // After a delimiter: `--` closes, CRLF opens a part (transport padding allowed).
            if bytes.count - at >= 2, bytes[at] == UInt8(ascii: "-"), bytes[at + 1] == UInt8(ascii: "-") {
                return parts
            }
            while at < bytes.count, bytes[at] == UInt8(ascii: " ") || bytes[at] == 9 { at += 1 }
            guard bytes.count - at >= 2, bytes[at] == 13, bytes[at + 1] == 10 else { return nil }
            at += 2
            let head: String
            let contentStart: Int
            if bytes.count - at >= 2, bytes[at] == 13, bytes[at + 1] == 10 {
                (head, contentStart) = ("", at + 2)  // a part with no headers
            } else {
                guard let headerEnd = find([13, 10, 13, 10], in: bytes, from: at) else { return nil }
                (head, contentStart) = (String(decoding: bytes[at..<headerEnd], as: UTF8.self), headerEnd + 4)
            }
            guard let end = find(separator, in: bytes, from: contentStart) else { return nil }
            guard parts.count < maximumParts, var part = part(head: head) else { return nil }
            part.data = Data(bytes[contentStart..<end])
            parts.append(part)
            at = end + separator.count
        }
    }

    /// A part's headers: its disposition and content type.
    static func part(head: String) -> MultipartPart? {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in head.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch field {
            case "content-disposition":
                let parameters = Self.parameters(value)
                guard parameters.first?.0 == "form-data" else { return nil }
                for (key, raw) in parameters.dropFirst() {
                    let decoded = PercentEncoding.decoded(raw, plusIsSpace: false) ?? raw
                    if key == "name" { name = decoded } else if key == "filename" { filename = decoded }
                }
            case "content-type": contentType = value
            default: continue
            }
        }
        guard let name else { return nil }
        return MultipartPart(name: name, filename: filename, contentType: contentType, data: Data(), isSecret: false)
    }

    /// `form-data; name="a"; filename="b.jpeg"` as (key, value) pairs, the first with no value.
    static func parameters(_ value: String) -> [(String, String)] {
        var out: [(String, String)] = []
        var scalars = Substring(value)
        func skipBlanks() { scalars = scalars.drop { $0 == " " || $0 == "\t" } }
        let first = scalars.prefix { $0 != ";" }
        out.append((first.trimmingCharacters(in: .whitespaces).lowercased(), ""))
        scalars = scalars.dropFirst(first.count)
        while scalars.first == ";" {
            scalars = scalars.dropFirst()
            skipBlanks()
            let key = scalars.prefix { $0 != "=" && $0 != ";" }
            scalars = scalars.dropFirst(key.count)
            var parameter = ""
            if scalars.first == "=" {
                scalars = scalars.dropFirst()
                if scalars.first == "\"" {
                    scalars = scalars.dropFirst()
                    let quoted = scalars.prefix { $0 != "\"" }
                    parameter = String(quoted)
                    scalars = scalars.dropFirst(quoted.count + 1)
                } else {
                    let bare = scalars.prefix { $0 != ";" }
                    parameter = bare.trimmingCharacters(in: .whitespaces)
                    scalars = scalars.dropFirst(bare.count)
                }
            }
            skipBlanks()
            out.append((key.trimmingCharacters(in: .whitespaces).lowercased(), parameter))
        }
        return out
    }

    /// Where `needle` first starts in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, from >= 0, haystack.count - from >= needle.count else { return nil }
        let first = needle[0]
        var index = from
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
