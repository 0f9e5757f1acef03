import ClosetNetwork
import Foundation

/// The app's model services (reference §2.3), synchronous: a shell runs one statement at a
/// time, so a completion handler would only hide the order of events.
protocol DailyBoxOfficeProvidable: AnyObject {
    func getDaily(targetDate: String) throws -> DailyBoxOffice
}

protocol MovieDetailsProvidable: AnyObject {
    func getMovieDetails(movieCode: String) throws -> MovieDetails
}

protocol BoxOfficeType: DailyBoxOfficeProvidable, MovieDetailsProvidable {}

/// KOBIS behind the two protocols.
final class BoxOffice: BoxOfficeType {
    let network: Network

    init(network: Network) { self.network = network }

    func getDaily(targetDate: String) throws -> DailyBoxOffice {
        try KobisAPI.daily(targetDate: targetDate, network: network)
    }

    func getMovieDetails(movieCode: String) throws -> MovieDetails {
        try KobisAPI.movie(code: movieCode, network: network)
    }
}

package enum ImageURLSearchError: Error, Equatable {
    case urlNotFound(keyword: String)
}

package protocol ImageURLSearchable: AnyObject {
    /// The first document's `image_url`.
    func searchSingle(for keyword: String) throws -> String
    /// Every valid `image_url`, with what the search said of each.
    func search(for keyword: String) throws -> [DaumImageSearchResult.Document]
}

/// The Kakao image search behind `ImageURLSearchable`.
final class DaumImageSearcher: ImageURLSearchable {
    let network: Network

    init(network: Network) { self.network = network }

    func search(for keyword: String) throws -> [DaumImageSearchResult.Document] {
        try KakaoImageSearchAPI.search(keyword, network: network).documents.filter { Self.isValid($0.imageURL) }
    }

    func searchSingle(for keyword: String) throws -> String {
        let documents = try KakaoImageSearchAPI.search(keyword, network: network).documents
        guard let first = documents.first, Self.isValid(first.imageURL) else {
            throw ImageURLSearchError.urlNotFound(keyword: keyword)
        }
        return first.imageURL
    }

    /// An absolute http(s) URL with a host.
    static func isValid(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { return false }
        return true
    }
}

package enum ImageProviderError: Error, Equatable {
    case imageConvertingFail(imageURL: String)
}

/// Fetches images through the two-tier cache (reference §2.3 `ImageProvider`). Its init
/// removes the disk tier's expired files, as the app's does.
package final class ImageProvider {
    package let cache: ImageCache
    let loader: (String) throws -> [UInt8]

    package init(cache: ImageCache, loader: @escaping (String) throws -> [UInt8]) {
        self.cache = cache
        self.loader = loader
        cache.removeExpired(option: .disk)
    }

    package enum Source: String, Sendable {
        case memory, disk, network
    }

    package func fetchImage(from url: String) throws -> (image: PosterImage, source: Source) {
        let key = url.cacheKey
        // The app asked `isCached` first; retrieving directly gives the same answer and lets
        // each tier count its hit or miss.
        if let (image, tier) = cache.retrieveImage(for: key) {
            return (image, tier == .memory ? .memory : .disk)
        }
        let bytes = try loader(url)
        guard let image = PosterImage.decode(bytes) else { throw ImageProviderError.imageConvertingFail(imageURL: url) }
        cache.store(image, for: key)
        return (image, .network)
    }
}
