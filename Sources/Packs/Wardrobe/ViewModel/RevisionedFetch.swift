/// What a list screen fetched from its repository, fetched again only when the repository's
/// revision moved since, or the last fetch failed (the app's chain died after one failure: a
/// quirk not copied). The clothes and the styles screens both refresh this way.
struct RevisionedFetch<Value> {
    private(set) var value: Value
    private(set) var lastError: RepositoryError?
    private var fetchedRevision: Int?

    init(_ empty: Value) { value = empty }

    mutating func refresh(revision: Int, _ fetch: () throws(RepositoryError) -> Value) {
        guard fetchedRevision != revision || lastError != nil else { return }
        fetchedRevision = revision
        do {
            value = try fetch()
            lastError = nil
        } catch {
            lastError = error
        }
    }
}
