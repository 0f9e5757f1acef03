import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The photos pack in one session: the saved photos' repository, the feed's view model and
/// the network it loads through.
final class PhotosState: PackState {
    let repository: SavedPhotoRepository
    let network: Network
    private(set) lazy var feed = ImageListViewModel(repository: repository) { [network] page throws(NetworkError) in
        try UnsplashAPI.page(page, network: network)
    }
    private(set) lazy var saved = ImageRepositoryViewModel(repository: repository)
    /// Feed pictures downloaded this session, by URL, as the app's image loader keeps them: a
    /// page listed again, `show photo` and `save photo` do not fetch them again. The app's cache
    /// had no limit; this one lets the least recently used go past 64 MB.
    let feedPictures = LRUCache<[UInt8]>(costLimit: 64 << 20, cost: \.count)

    init(_ services: PackServices) throws {
        repository = try SavedPhotoRepository(services.store)
        network = services.network
    }

    /// The photo id the command's reference names, checked for its shape.
    func photoID(_ invocation: Invocation) throws(Diagnostic) -> String {
        let id = try invocation.referenceParameter().text
        guard Self.isPhotoID(id) else { throw .notAPhotoID(id, at: invocation.parameters.first?.range) }
        return id
    }

    /// The saved photo the command's reference names.
    func savedPhoto(_ invocation: Invocation) throws(Diagnostic) -> SavedPhoto {
        let id = try invocation.referenceParameter().text
        guard let photo = repository.searchPicture(id: id) else {
            throw .notSaved(id, at: invocation.parameters.first?.range)
        }
        return photo
    }

    /// The photo's feed data: from the feed when it was listed, else from the API.
    func picture(_ id: String) throws(NetworkError) -> PictureData {
        if let known = feed.picture(id: id) { return known }
        return try UnsplashAPI.photo(id, network: network)
    }

    /// A feed picture's bytes: from this session's memory, else downloaded and kept.
    func feedPicture(at url: String) throws(NetworkError) -> [UInt8] {
        if let kept = feedPictures.get(for: url) { return kept }
        let bytes = try UnsplashAPI.picture(at: url, network: network)
        feedPictures.store(bytes, for: url)
        return bytes
    }

    /// The app's column width in points, which display heights are computed for.
    static let columnWidth = 150

    /// The stored picture, checked against what was recorded when it was saved.
    func checkedPicture(_ photo: SavedPhoto) throws(Diagnostic) -> [UInt8] {
        guard let bytes = repository.picture(of: photo) else { throw .savedPictureMissing(photo.id) }
        guard bytes.count == photo.image.bytes, Checksum.crc32(bytes) == photo.image.checksum else {
            throw .savedPictureDamaged(photo.id)
        }
        return bytes
    }

    /// An Unsplash id: letters, digits, `-` and `_`.
    static func isPhotoID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
    }

    // MARK: the engine's questions

    package var counts: [(EntityKind, Int)] { [(Photos.saved, repository.count)] }

    /// Ids seen in this session (the feed) and saved ones: completion never asks the API.
    package func keys(of kind: EntityKind) -> [EntityKey] {
        let savedIDs = repository.fetchPictures().map(\.id)
        if kind == Photos.saved { return savedIDs.map { .opaque($0) } }
        guard kind == Photos.photo else { return [] }
        var seen = Set<String>()
        return (feed.imageList.map(\.imageData.id) + savedIDs).filter { seen.insert($0).inserted }.map { .opaque($0) }
    }

    /// Any id may name a photo (the API says whether it exists) or a saved one: the
    /// commands check, and say "not an Unsplash photo id" or "is not saved" rather than the
    /// engine's "no photo has id".
    package func contains(_ key: EntityKey, kind: EntityKind) -> Bool {
        kind == Photos.photo || kind == Photos.saved
    }

    package func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }

    package func label(of key: EntityKey, kind: EntityKind) -> String? {
        kind == Photos.saved ? repository.searchPicture(id: key.text)?.memo : nil
    }

    package func completionLabel(of key: EntityKey, kind: EntityKind) -> String {
        if let photo = repository.searchPicture(id: key.text) { return "★ " + photo.memo }
        if let picture = feed.picture(id: key.text) { return "\(picture.width)x\(picture.height)" }
        return ""
    }

    package func dump(into writer: inout DumpWriter) throws {
        try PhotosDump.write(self, into: &writer)
    }
}
