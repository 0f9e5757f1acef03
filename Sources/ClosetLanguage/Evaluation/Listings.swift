/// What a session's last listings were, for `@N`, `export picture(s)` and `next`.
struct Listings {
    /// The rows of the last listing, in order: what `@N` names.
    var last: Listing?
    /// The last listing's pictures, row by row (nil: it shows none), for `export picture @N`
    /// and `export pictures`; loaded only when exported.
    var pictures: [@Sendable (Session) -> Picture]?
    /// The most recent paged listing (a remote feed), which `next` continues.
    var paged: PagedListing?
    /// The command of the most recent listing when that listing does not page (`list
    /// boxoffice`): `next` says it has no next page rather than continuing an older one.
    var unpaged: String?
}
