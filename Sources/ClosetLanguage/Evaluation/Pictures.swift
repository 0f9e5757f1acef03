import ClosetCore

/// The pictures a result shows beside its text when pictures are on (`.pictures`), as the
/// app's screen arranges them. Loaded only then: a listing printed without pictures, or into a
/// pipe, reads no picture.
public struct Pictures: Sendable {
    public enum Arrangement: Sendable, Equatable {
        /// One picture, as large as the size allows.
        case single
        /// Side by side at one height, as the market's product gallery.
        case row
        /// Square cells, `columns` to a row, each picture fitted in its cell: a 2×2 collage.
        case grid(columns: Int)
        /// Columns of equal width, each picture going to the column its app placed it in
        /// (`Picture.column`, else the shortest) at the height its app shows it
        /// (`Picture.displaySize`), never enlarged: Picterest's two-column feed. A picture that
        /// cannot be shown keeps its place, so the others stay in the columns the table says.
        case masonry(columns: Int)
        /// A listing's pictures as square thumbnails across the terminal (a quarter of the
        /// picture size set by `.pictures` each), as many to a line as fit, each line followed by
        /// the row numbers of its pictures, each under its own: a row with no picture
        /// (`Picture.none`) has none.
        case thumbnails
    }

    /// Named groups of the thumbnails, in order (an app's home screen of sections, empty ones
    /// too): each a heading with its count, then its pictures. Drawn only when the
    /// counts add up to the pictures shown (a window of a listing draws one strip).
    public struct Section: Sendable, Equatable {
        public var title: String
        public var korean: String?
        public var count: Int

        public init(_ title: String, korean: String? = nil, count: Int) {
            self.title = title
            self.korean = korean
            self.count = count
        }
    }

    public var arrangement: Arrangement
    public var sections: [Section]?
    /// One loader a picture, called only when the pictures are shown, with the session (a pack
    /// finds its state there): a listing's pictures are read, or fetched, then and not before,
    /// and a listing shown a window at a time (`limit=`) loads only the window's.
    public var items: [@Sendable (Session) -> Picture]

    public init(
        _ arrangement: Arrangement, _ items: [@Sendable (Session) -> Picture], sections: [Section]? = nil
    ) {
        self.arrangement = arrangement
        self.items = items
        self.sections = sections
    }

    /// Pictures already read.
    public init(_ arrangement: Arrangement, _ pictures: [Picture]) {
        self.init(arrangement, pictures.map { picture in { _ in picture } })
    }
}

/// One picture's stored bytes (PNG or JPEG), or why there are none.
public struct Picture: Sendable {
    public enum Source: Sendable {
        case bytes([UInt8])
        /// Shown as a line in place of the picture (`picture: missing from the store`).
        case unavailable(String)
        /// A listing's row that has no picture: nothing is drawn for it, and it keeps its number.
        case none
        /// Several pictures drawn as one, two rows of two (an app's card of several): one thumbnail
        /// in a listing; exported as its parts.
        case collage([Picture])
    }

    public var source: Source
    /// The size the app lays it out at (points), for a masonry; nil: the picture's own.
    public var displaySize: (width: Int, height: Int)?
    /// The file name `export pictures` gives it: the store's blob name, or the last part of
    /// the URL it came from; nil: one is made from its entity's key.
    public var name: String?
    /// The masonry column the app placed it in (0 the left), as the listing's table says; nil:
    /// the shortest column when it comes.
    public var column: Int?

    public init(
        _ source: Source, displaySize: (width: Int, height: Int)? = nil, name: String? = nil, column: Int? = nil
    ) {
        self.source = source
        self.displaySize = displaySize
        self.name = name
        self.column = column
    }

    public static func bytes(_ bytes: [UInt8], name: String? = nil) -> Picture { Picture(.bytes(bytes), name: name) }

    /// A listing's row without a picture.
    public static let none = Picture(.none)

    /// A picture a store keeps, checked against what was recorded when it was written: a
    /// missing or damaged one is a line saying so, never a wrong picture.
    public static func stored(
        _ bytes: [UInt8]?, _ info: ImageInfo, name: String, displaySize: (width: Int, height: Int)? = nil,
        column: Int? = nil
    ) -> Picture {
        guard let bytes else {
            return Picture(
                .unavailable("missing from the store"), displaySize: displaySize, name: name, column: column)
        }
        guard bytes.count == info.bytes, Checksum.crc32(bytes) == info.checksum else {
            return Picture(
                .unavailable("damaged in the store (its checksum does not match)"), displaySize: displaySize,
                name: name, column: column)
        }
        return Picture(.bytes(bytes), displaySize: displaySize, name: name, column: column)
    }
}

extension Outcome {
    /// The same result, showing `pictures` when pictures are on.
    public func showing(_ pictures: Pictures) -> Outcome {
        switch self {
        case .entities(var entities):
            entities.pictures = pictures
            return .entities(entities)
        case .fields(let fields, _): return .fields(fields, pictures: pictures)
        case .properties(let fields, _): return .properties(fields, pictures: pictures)
        case .count, .removed, .text, .settings, .table, .nothing: return self
        }
    }

    /// The pictures this result shows, if any.
    var pictures: Pictures? {
        switch self {
        case .entities(let entities): entities.pictures
        case .fields(_, let pictures), .properties(_, let pictures): pictures
        case .count, .removed, .text, .settings, .table, .nothing: nil
        }
    }
}
