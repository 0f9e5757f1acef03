/// The Kakao (Daum) image search's answer (reference §2.2).
package struct DaumImageSearchResult: Decodable, Sendable, Equatable {
    package var metadata: Metadata
    package var documents: [Document]

    enum CodingKeys: String, CodingKey {
        case metadata = "meta"
        case documents
    }

    package struct Metadata: Decodable, Sendable, Equatable {
        package var totalCount: Int
        var pageableCount: Int
        var isEnd: Bool
        enum CodingKeys: String, CodingKey {
            case totalCount = "total_count"
            case pageableCount = "pageable_count"
            case isEnd = "is_end"
        }
    }

    package struct Document: Decodable, Sendable, Equatable {
        package var collection: String
        var thumbnailURL: String
        package var imageURL: String
        package var width: Int
        package var height: Int
        var displaySitename: String
        var documentURL: String
        package var datetime: String
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
