import ClosetCore

/// One pack's state in one session.
public protocol PackState: EntityCatalog {
    /// How many of each stored kind there are: `.store` and the banner.
    var counts: [(EntityKind, Int)] { get }
    /// Statements that recreate the pack's stored data exactly (`.dump`).
    func dump(into writer: inout DumpWriter) throws
    /// The names of `list` this session has seen, for completion (never fetched for it).
    func names(in list: NameList) -> [String]
}

extension PackState {
    public func names(in list: NameList) -> [String] { [] }
}
