import ClosetCore
import Foundation

/// A checked value of a key or parameter.
public enum ArgumentValue: Sendable {
    case text(String)
    /// Terms of a vocabulary (named), by code, in the order written.
    case terms(vocabulary: String, codes: [Int])
    case count(Int)
    case size(Int)
    case date(Date)
    /// Entities that exist (and meet the key's constraint), in the order written.
    case references(EntityKind, [EntityKey])
    case path(String)
    case id(UUID)
    /// The word `none` where the key allows it (empty a slot, drop an image).
    case none
}

/// One checked key or parameter, with where it was written.
public struct BoundArgument: Sendable {
    public var key: String
    public var value: ArgumentValue
    public var range: SourceRange
}
