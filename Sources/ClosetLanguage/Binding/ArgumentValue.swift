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

    /// Text with nothing in it: for a required key, as good as left out (a dump leaves empty
    /// text out, so a row holding it could not be made again).
    package var isEmptyText: Bool {
        if case .text(let text) = self { text.isEmpty } else { false }
    }
}

/// One checked key or parameter, with where it was written.
public struct BoundArgument: Sendable {
    public var key: String
    public var value: ArgumentValue
    public var range: SourceRange
    /// A secret asked for at the terminal, not written in the statement.
    package var askedAtTerminal = false
}
