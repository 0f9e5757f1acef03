import ClosetCore

/// Which entities of a kind exist, for references, completion and `.vars`. A pack's state
/// answers for the kinds it registered.
public protocol EntityCatalog: AnyObject {
    /// Every key of the kind, in store order (prefix matching, completion).
    func keys(of kind: EntityKind) -> [EntityKey]
    func contains(_ key: EntityKey, kind: EntityKind) -> Bool
    /// Why the entity does not meet the constraint (`is a bottom, not a top`), or nil.
    func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String?
    /// What `.vars` shows after a bound entity's short key (a description), or nil.
    func label(of key: EntityKey, kind: EntityKind) -> String?
    /// What a completion list shows after the short key (`top  navy knit`).
    func completionLabel(of key: EntityKey, kind: EntityKind) -> String
}
