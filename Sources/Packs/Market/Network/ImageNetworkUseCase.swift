import ClosetCore
import ClosetLanguage
import ClosetNetwork

/// The app's `ImageNetworkUseCase`: a product's picture by its URL, checked to be a picture,
/// and kept so the same URL is fetched once. The app's `NSCache` had no limits (a quirk not
/// copied): this one keeps at most 64 pictures and 64 MB, least recently used first out.
final class ImageNetworkUseCase {
    private let network: Network
    private let cache = LRUCache<[UInt8]>(countLimit: 64, costLimit: 64 << 20) { $0.count }

    init(network: Network) {
        self.network = network
    }

    /// `retrieveImage(with:)`: the picture's bytes and what they are.
    func retrieveImage(with urlString: String) throws(ImageNetworkUseCaseError) -> (bytes: [UInt8], info: ImageInfo) {
        if let bytes = cache.get(for: urlString), let info = try? ImageHeader.inspect(bytes) { return (bytes, info) }
        guard urlString.hasPrefix("http://") || urlString.hasPrefix("https://"), urlString.count > 8 else {
            throw .invalidURL
        }
        let response: HTTPResponse
        do {
            response = try network.successful(.get(url: urlString))
        } catch {
            throw .networkError(OpenMarketNetworkError(error))
        }
        let bytes = [UInt8](response.body)
        guard let info = try? PictureBytes.inspect(bytes) else { throw .convertDataToImageError }
        cache.store(bytes, for: urlString)
        return (bytes, info)
    }
}
