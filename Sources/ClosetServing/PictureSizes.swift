import ClosetCore
import ClosetNetwork
import ClosetPictures
import Foundation

/// How an API's picture URLs ask for a size, so `closet serve --replay` answers every size an
/// answer names from the one that was recorded: Unsplash's pictures are imgix URLs, whose
/// `w=` is the width wanted (`raw`, `full`, `regular`, `small` and `thumb` differ only in
/// their query). A size no recording holds is the recorded picture of the same URL, scaled
/// down to that width in its proportions (never up: a CDN gives the original then).
public struct PictureSizes: Sendable {
    /// What every size of one picture shares (the URL without its query); nil when the URL is
    /// not one of the API's sized pictures.
    public var picture: @Sendable (String) -> String?
    /// The width the URL asks for; nil for the picture as it is.
    public var width: @Sendable (String) -> Int?

    public init(picture: @escaping @Sendable (String) -> String?, width: @escaping @Sendable (String) -> Int?) {
        self.picture = picture
        self.width = width
    }

    /// An imgix host's pictures (`https://images.unsplash.com/photo-…?w=400`).
    public static func imgix(host: String) -> PictureSizes {
        PictureSizes(
            picture: { url in
                let base = String(url.prefix { $0 != "?" })
                return base.hasPrefix("https://" + host + "/") ? base : nil
            },
            width: { url in
                URLComponents(string: url)?.queryItems?.last { $0.name == "w" }?.value.flatMap { Int($0) }
            })
    }

    /// The widest picture made this way, and the most pixels read to make one: a recording
    /// is data a person may have edited, and a client may ask for any width, each a decode of
    /// its own (a 12-megapixel photo decodes in tens of milliseconds; a larger one is given
    /// as recorded rather than hold a worker others wait for).
    static let widest = 4096
    static let mostPixels = 12_000_000

    /// `url`'s answer made from a recorded size of the same picture; nil when none is recorded
    /// (or what is recorded is not a picture that decodes).
    func answer(_ url: String, from recordings: ServedRecordings) -> HTTPResponse? {
        guard let wanted = picture(url) else { return nil }
        if let made = recordings.resized(url) { return made }
        // The largest recorded size: scaling down loses least.
        guard
            let source = recordings.pictures(where: { self.picture($0) == wanted })
                .max(by: { $0.body.count < $1.body.count })
        else { return nil }
        let bytes = [UInt8](source.body)
        guard let header = try? ImageHeader.inspect(bytes), header.width > 0, header.height > 0 else { return nil }
        var answer = source
        answer.headers.removeAll { ["etag", "content-length", "last-modified"].contains($0.name.lowercased()) }
        if let width = self.width(url), width >= 1, width < header.width,
            header.width * header.height <= Self.mostPixels,
            let bitmap = try? PictureDecoder.decode(bytes, drawnWithin: (min(width, Self.widest), header.height))
        {
            let width = min(width, Self.widest)
            let height = max(1, Int((Double(header.height) * Double(width) / Double(header.width)).rounded()))
            let scaled = JPEGEncoder.encode(bitmap.scaled(toWidth: width, height: height), quality: 85)
            answer.headers.removeAll { $0.name.lowercased() == "content-type" }
            answer.headers.append(HTTPHeader("Content-Type", "image/jpeg"))
            answer.body = Data(scaled)
        }
        recordings.keep(resized: answer, for: url)
        return answer
    }
}
