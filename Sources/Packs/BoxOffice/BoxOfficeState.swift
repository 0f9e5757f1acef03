import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The box office pack in one session: the KOBIS and Kakao services, the ranking's view
/// model, titles seen, and the poster cache under `$XDG_CACHE_HOME/closet/posters` (a
/// private temporary folder, removed at the end, with a `:memory:` store).
package final class BoxOfficeState: PackState {
    let network: Network
    let boxOffice: BoxOffice
    let searcher: DaumImageSearcher
    /// The session clock read without taking a timestamp (a deterministic clock steps on
    /// each one): expiry and "yesterday".
    let now: () -> Date
    /// Named on first use: a private temporary folder's name costs a random UUID and
    /// Foundation's temporary-folder lookup, which most sessions never need.
    private(set) lazy var cacheFolder =
        cacheRoot.map { $0 + "/posters" } ?? NSTemporaryDirectory() + "closet-posters-" + UUID().uuidString
    let cacheRoot: String?
    var cacheIsTemporary: Bool { cacheRoot == nil }
    private(set) var ranking: DailyBoxOfficeViewModel?
    /// The day of the ranking listed last: where `day=previous|next` steps from.
    var shownDay: String? { ranking?.currentDate.value }
    /// Titles by movie code, from rankings and details seen: the poster search needs one.
    var titles: [String: String] = [:]
    /// The movie each poster found by `search posters` is for, by URL: `show poster @2`.
    var posterMovies: [String: String] = [:]
    /// Codes seen, in order, for completion.
    private(set) var seenCodes: [String] = []

    init(_ services: PackServices) throws {
        network = services.network
        boxOffice = BoxOffice(network: services.network)
        searcher = DaumImageSearcher(network: services.network)
        let clock = services.clock
        now = (clock as? AdjustableClock).map { adjustable in { adjustable.current } } ?? { clock.now() }
        cacheRoot = services.cacheRoot
    }

    deinit {
        // Only a provider makes the folder.
        if cacheIsTemporary, madeProvider != nil { try? FileManager.default.removeItem(atPath: cacheFolder) }
    }

    private var madeProvider: ImageProvider?

    /// The app's `ImageProvider` over `ImageCache.default`, made on first use (so a session
    /// that shows no poster touches no folder).
    func provider() throws(Diagnostic) -> ImageProvider {
        if let madeProvider { return madeProvider }
        let network = network
        do {
            let cache = try ImageCache.standard(directory: cacheFolder, now: now)
            let provider = ImageProvider(cache: cache) { url in [UInt8](try network.successful(.get(url: url)).body) }
            madeProvider = provider
            return provider
        } catch {
            throw .posterCacheUnavailable(cacheFolder)
        }
    }

    /// The ranking of a day (`yyyy-MM-dd`), through the app's view model.
    func daily(_ day: String?) throws -> [DailyBoxOfficeCellItem] {
        let viewModel: DailyBoxOfficeViewModel
        if let ranking {
            viewModel = ranking
            viewModel.thrownError.value = nil
            viewModel.dailyBoxOfficeItems.value = nil
            viewModel.setCurrentDate(day ?? BoxOfficeCalendar.yesterday(now: now()))
        } else {
            viewModel = DailyBoxOfficeViewModel(boxOffice: boxOffice, now: now(), initialDate: day)
            ranking = viewModel
        }
        if let error = viewModel.thrownError.value { throw error }
        let items = viewModel.dailyBoxOfficeItems.value ?? []
        for item in items { remember(item.movieCode, title: item.movieTitle) }
        return items
    }

    func remember(_ code: String, title: String) {
        if titles[code] == nil { seenCodes.append(code) }
        titles[code] = title
    }

    /// A movie's details, through the app's detail view model (without its poster search,
    /// which `show poster` does).
    func details(_ code: String, at range: SourceRange? = nil) throws -> MovieDetailsItem {
        let viewModel = MovieDetailsViewModel(
            movieCode: code, movieTitle: titles[code] ?? "", boxOffice: boxOffice, imageURLSearcher: nil)
        if let error = viewModel.thrownError.value { throw error }
        // KOBIS answers an unknown code with an empty movie.
        guard let item = viewModel.movieDetailsItem.value, !item.info.movieCode.isEmpty else {
            throw Diagnostic.noSuchMovie(code, at: range)
        }
        remember(code, title: item.info.movieName)
        return item
    }

    /// The title the poster search needs: seen already, or from KOBIS.
    func title(_ code: String, at range: SourceRange? = nil) throws -> String {
        if let title = titles[code] { return title }
        return try details(code, at: range).info.movieName
    }

    // MARK: the engine's questions

    package var counts: [(EntityKind, Int)] { [] }

    package func keys(of kind: EntityKind) -> [EntityKey] {
        kind == BoxOfficePack.movie || kind == BoxOfficePack.ranking ? seenCodes.map { .opaque($0) } : []
    }

    /// Any key may name a movie or a poster: KOBIS says whether it exists, and the commands
    /// check a code's shape ("not a KOBIS movie code" says more than "no movie has id").
    package func contains(_ key: EntityKey, kind: EntityKind) -> Bool {
        kind == BoxOfficePack.movie || kind == BoxOfficePack.ranking || kind == BoxOfficePack.poster
    }

    package func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }

    package func label(of key: EntityKey, kind: EntityKind) -> String? { titles[key.text] }

    package func completionLabel(of key: EntityKey, kind: EntityKind) -> String { titles[key.text] ?? "" }

    /// Nothing of the box office is stored: it comes from KOBIS each time.
    package func dump(into writer: inout DumpWriter) throws {}
}
