import ClosetCore

/// The app's `StyleViewModel`. The app never sorted (its `sortByNew` was dead code) and its
/// merge order was arbitrary; here `styles` is the repository's insertion order, and callers
/// that want an order ask `sorted(_:)`.
public final class StyleViewModel {
    private let repository: StyleRepository
    public private(set) var styles: [Style] = []
    public private(set) var lastError: RepositoryError?

    public init(repository: StyleRepository, fetchNow: Bool = true) {
        self.repository = repository
        if fetchNow { refresh() }
    }

    private var fetchedRevision: Int?

    /// The app's `stylesDidUpdate`, skipped when nothing changed. A failure is remembered;
    /// later refreshes still run.
    public func refresh() {
        guard fetchedRevision != repository.revision || lastError != nil else { return }
        fetchedRevision = repository.revision
        do {
            styles = try repository.fetchStyles()
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// The app's `deleteStyle`: remove, then refresh.
    public func delete(style: Style) throws(RepositoryError) {
        try repository.remove(style: style)
        refresh()
    }

    /// Styles by creation time; equal instants keep insertion order.
    public func sorted(_ sort: SortBy) -> [Style] { styles.sorted(by: sort) }
}
