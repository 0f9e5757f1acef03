import ClosetNetwork
import Foundation

/// The feed screen's view model (reference §4.3): pages of 15 appended to one list, each
/// with its display height and masonry column, and whether it is saved. `next` loads the
/// page after the current one unless a load is under way. The app's quirk is not copied: a
/// page that fails leaves `loading` false and `currentPage` where it was, so the next
/// `next` tries that page again instead of stopping for good.
final class ImageListViewModel {
    private(set) var imageList: [SavablePictureData] = []
    private(set) var imageSizeList: [Int] = []
    private(set) var columns: [MasonryLayout.Column] = []
    private(set) var currentPage = 1
    private(set) var loading = false
    /// Whether the last page loaded was short: the feed has no more.
    private(set) var reachedEnd = false
    private var layout = MasonryLayout()
    private let repository: SavedPhotoRepository
    private let loadPage: (Int) throws(NetworkError) -> [PictureData]

    init(repository: SavedPhotoRepository, loadPage: @escaping (Int) throws(NetworkError) -> [PictureData]) {
        self.repository = repository
        self.loadPage = loadPage
    }

    var imageCount: Int { imageList.count }

    /// The photo at a row, re-checked against the store as the app does: a photo unsaved
    /// since its page loaded loses its ★.
    func image(at index: Int) -> SavablePictureData {
        if imageList[index].isSaved, !repository.contains(imageList[index].imageData.id) {
            imageList[index].isSaved = false
        } else if !imageList[index].isSaved, repository.contains(imageList[index].imageData.id) {
            imageList[index].isSaved = true
        }
        return imageList[index]
    }

    func imageSize(at index: Int) -> Int { imageSizeList[index] }

    /// Starts the feed over at `page` (1 unless a page is asked for). Returns the rows added.
    func list(page: Int = 1) throws(NetworkError) -> Range<Int> {
        let pictures = try load(page)
        imageList = []
        imageSizeList = []
        columns = []
        layout = MasonryLayout()
        currentPage = page
        return append(pictures)
    }

    /// The page after the current one, appended. Nil while a load is under way.
    func next() throws(NetworkError) -> Range<Int>? {
        guard !loading else { return nil }
        let pictures = try load(currentPage + 1)
        currentPage += 1
        return append(pictures)
    }

    /// The photo with this id, if the feed has shown it.
    /// Where a photo is in the feed loaded so far.
    func index(of id: String) -> Int? { imageList.firstIndex { $0.imageData.id == id } }

    func picture(id: String) -> PictureData? {
        imageList.first { $0.imageData.id == id }?.imageData
    }

    private func load(_ page: Int) throws(NetworkError) -> [PictureData] {
        loading = true
        defer { loading = false }
        return try loadPage(page)
    }

    private func append(_ pictures: [PictureData]) -> Range<Int> {
        let start = imageList.count
        for picture in pictures {
            imageList.append(SavablePictureData(imageData: picture, isSaved: repository.contains(picture.id)))
            imageSizeList.append(picture.displayHeight)
            columns.append(layout.place(displayHeight: picture.displayHeight))
        }
        reachedEnd = pictures.count < UnsplashAPI.perPage
        return start..<imageList.count
    }
}
