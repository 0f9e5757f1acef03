/// The Kakao (Daum) image search's answer (reference §2.2).
public struct DaumImageSearchResult: Decodable, Sendable, Equatable {
    public var metadata: Metadata
    public var documents: [Document]

    enum CodingKeys: String, CodingKey {
        case metadata = "meta"
        case documents
    }

    public struct Metadata: Decodable, Sendable, Equatable {
        public var totalCount: Int
        public var pageableCount: Int
        public var isEnd: Bool
        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
            case pageableCount = "pageable_count"
            case isEnd = "is_end"
        }
    }

    public struct Document: Decodable, Sendable, Equatable {
        public var collection: String
        public var thumbnailURL: String
        public var imageURL: String
        public var width: Int
        public var height: Int
        public var displaySitename: String
        public var documentURL: String
        public var datetime: String
        enum CodingKeys: String, CodingKey {
            case collection
            case thumbnailURL = "thumbnail_url"
            case imageURL = "image_url"
            case width, height
            case displaySitename = "display_sitename"
            case documentURL = "doc_url"
            case datetime
        }
    }
}
