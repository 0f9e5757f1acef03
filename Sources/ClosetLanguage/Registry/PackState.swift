import ClosetCore

/// One pack's state in one session.
public protocol PackState: EntityCatalog {
    /// How many of each stored kind there are: `.store` and the banner.
    var counts: [(EntityKind, Int)] { get }
    /// Statements that recreate the pack's stored data exactly (`.dump`).
    func dump(into writer: inout DumpWriter) throws
}
