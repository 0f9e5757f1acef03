import ClosetCore

/// The app's `StyleViewModel`. The app never sorted (its `sortByNew` was dead code) and its
/// merge order was arbitrary; here `styles` is the repository's insertion order, and callers
/// that want an order ask `sorted(_:)`.
package final class StyleViewModel {
    private let repository: StyleRepository
    package var styles: [Style] { fetched.value }
    package var lastError: RepositoryError? { fetched.lastError }
    private var fetched = RevisionedFetch([Style]())

    package init(repository: StyleRepository, fetchNow: Bool = true) {
        self.repository = repository
        if fetchNow { refresh() }
    }

    /// The app's `stylesDidUpdate`, skipped when nothing changed. A failure is remembered;
    /// later refreshes still run.
    package func refresh() {
        let repository = repository
        fetched.refresh(revision: repository.revision) { () throws(RepositoryError) in try repository.fetchStyles() }
    }

    /// The app's `deleteStyle`: remove, then refresh.
    package func delete(style: Style) throws(RepositoryError) {
        try repository.remove(style: style)
        refresh()
    }

    /// Styles by creation time; equal instants keep insertion order.
    package func sorted(_ sort: SortBy) -> [Style] { styles.sorted(by: sort) }
}
