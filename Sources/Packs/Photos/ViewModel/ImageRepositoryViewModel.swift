/// The saved screen's view model (reference §4.3): every saved photo, its memo as the cell's
/// label and its stored display height.
final class ImageRepositoryViewModel {
    private(set) var imageList: [SavedPhoto] = []
    private let repository: SavedPhotoRepository

    init(repository: SavedPhotoRepository) {
        self.repository = repository
    }

    /// Refetches everything, as the app does each time the screen appears.
    func list() { imageList = repository.fetchPictures() }

    var imageCount: Int { imageList.count }
    func image(at index: Int) -> SavedPhoto { imageList[index] }
    func imageSize(at index: Int) -> Int { imageList[index].displayHeight }
}
