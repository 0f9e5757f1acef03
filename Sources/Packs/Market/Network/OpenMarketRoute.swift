import ClosetNetwork

/// The app's `OpenMarketAPI` cases (reference §3.1): each request's path and method, in one
/// place. The app wrote `/item/` for a POST; the server routes `/item` (apis.md), which is what
/// is sent.
enum OpenMarketRoute: Equatable {
    case load(page: Int)
    case loadProduct(id: Int)
    case postProduct
    case patchProduct(id: Int)
    case deleteProduct(id: Int)

    /// The app's `successStatusCode`.
    static let successStatusCode: ClosedRange<Int> = 200...299

    var path: String {
        switch self {
        case .load(let page): "/items/\(page)"
        case .loadProduct(let id), .patchProduct(let id), .deleteProduct(let id): "/item/\(id)"
        case .postProduct: "/item"
        }
    }

    var method: HTTPRequest.Method {
        switch self {
        case .load, .loadProduct: .get
        case .postProduct: .post
        case .patchProduct: .patch
        case .deleteProduct: .delete
        }
    }
}

/// The app's `MimeType`: the content type of a request's parts and the extension of the file
/// name each picture part gets (`0.jpeg`). Every picture goes up as a JPEG (`UploadPicture`).
enum MimeType: Equatable, CustomStringConvertible {
    case applicationJson
    case imageJpeg

    var description: String {
        switch self {
        case .applicationJson: "application/json"
        case .imageJpeg: "image/jpeg"
        }
    }

    var fileExtension: String {
        switch self {
        case .applicationJson: ".json"
        case .imageJpeg: ".jpeg"
        }
    }
}
