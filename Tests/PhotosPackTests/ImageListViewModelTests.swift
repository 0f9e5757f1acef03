import ClosetCore
import ClosetNetwork
import ClosetTables
import Foundation
import Testing

@testable import PhotosPack

/// The feed's view model and layout, as reference §4.3 describes them (the app has no tests).
@Suite struct ImageListViewModelTests {
    static func picture(_ id: String, _ width: Int, _ height: Int) -> PictureData {
        PictureData(
            id: id, width: width, height: height, imageUrl: ImageUrl(rawUrl: "r", regularUrl: "g", smallUrl: "s"))
    }

    @Test func displayHeightIsHeightTimes150OverWidthRoundedDown() {
        #expect(Self.picture("a", 4000, 6000).displayHeight == 225)
        #expect(Self.picture("b", 5472, 3648).displayHeight == 100)
        #expect(Self.picture("c", 3000, 3001).displayHeight == 150)
        #expect(Self.picture("d", 0, 10).displayHeight == 0)
    }

    @Test func eachPhotoGoesToTheShorterColumn() {
        var layout = MasonryLayout()
        // 100+12 left; 50+12 right; right (62 < 112) → 124; left (112 < 124) → 224; right.
        #expect(
            [100, 50, 50, 100, 10].map { layout.place(displayHeight: $0) } == [.left, .right, .right, .left, .right])
        #expect(layout.yOffset == [224, 146])
    }

    func viewModel(pages: @escaping (Int) throws(NetworkError) -> [PictureData]) throws -> (
        ImageListViewModel, SavedPhotoRepository
    ) {
        let store = MemoryStore([AnyTableSchema(SavedPhotoTable.schema)])
        let repository = try SavedPhotoRepository(store)
        return (ImageListViewModel(repository: repository, loadPage: pages), repository)
    }

    @Test func pagesAppendAndAFailureKeepsThePageToRetry() throws {
        let failing = FailOnce()
        let (model, _) = try viewModel { page throws(NetworkError) in
            if page == 2, failing.shouldFail() { throw .timedOut(url: "u", seconds: 1) }
            return (0..<15).map { Self.picture("p\(page)-\($0)", 100, 100) }
        }
        #expect(try model.list() == 0..<15)
        #expect(throws: NetworkError.self) { try model.next() }
        #expect(model.loading == false && model.currentPage == 1 && model.imageCount == 15)
        #expect(try model.next() == 15..<30)
        #expect(model.currentPage == 2 && model.image(at: 15).imageData.id == "p2-0")
    }

    @Test func theStarIsRecheckedAgainstTheStore() throws {
        let (model, repository) = try viewModel { _ throws(NetworkError) in [Self.picture("x", 10, 10)] }
        _ = try model.list()
        #expect(model.image(at: 0).isSaved == false)
        let photo = SavedPhoto(
            id: "x", memo: "", url: "r", image: ImageInfo(format: .png, width: 1, height: 1, bytes: 1, checksum: 0),
            pictureID: UUID(), displayHeight: 150, savedAt: Date(timeIntervalSince1970: 0))
        try repository.save(photo, picture: [0])
        #expect(model.image(at: 0).isSaved == true)
        repository.delete(id: "x")
        #expect(model.image(at: 0).isSaved == false)
        #expect(model.reachedEnd)
    }
}

final class FailOnce: @unchecked Sendable {
    private var failed = false
    func shouldFail() -> Bool {
        defer { failed = true }
        return !failed
    }
}

/// Issue 43: Picterest's `NetworkError` texts (reference §4.1) under `.lang ko`, closet's own
/// conditions in closet's words; the English message and the id are closet's either way.
@Suite struct PicterestNetworkErrorTests {
    @Test func eachFailureSaysWhatTheAppSaid() {
        let url = "https://api.unsplash.com/photos"
        let cases: [(NetworkError, String?)] = [
            (
                .status(503, statusLine: "503 Service Unavailable", method: "GET", url: url, detail: nil),
                "(503) 실패한 상태코드"
            ),
            (.malformed(url: url, expected: "a JSON array of photos"), "디코딩 실패"),
            (.invalidBaseURL(variable: "CLOSET_UNSPLASH_URL", value: "ftp://x"), "유효하지 않은 URL입니다."),
            (.connectionRefused(host: "127.0.0.1"), "HTTP 요청에 실패했습니다."),
            (.timedOut(url: url, seconds: 10), "HTTP 요청에 실패했습니다."),
            (.failed(url: url, reason: "reset"), "HTTP 요청에 실패했습니다."),
            (.offline("GET", url, reason: "(--offline)"), nil),
            (.noRecording("GET", url), nil),
            (.api(name: "Unsplash API", message: "Per page is too large"), nil),
        ]
        for (error, korean) in cases {
            let said = PicterestNetworkError(error: error)
            #expect(said.koreanMessage == korean, "\(error)")
            #expect(said.message == error.message && said.diagnosticID == "network.failed")
        }
    }
}
