import Foundation

/// Anything with a creation time: clothes and styles sort the same way.
public protocol CreationDated {
    var createdAt: Date { get }
}

extension Clothes: CreationDated {}
extension Style: CreationDated {}

extension Array where Element: CreationDated {
    /// A stable sort by `createdAt`, newest or oldest first: equal instants keep their order.
    public func sorted(by sort: SortBy) -> [Element] {
        enumerated().sorted { lhs, rhs in
            if lhs.element.createdAt != rhs.element.createdAt {
                switch sort {
                case .new: return lhs.element.createdAt > rhs.element.createdAt
                case .old: return lhs.element.createdAt < rhs.element.createdAt
                }
            }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
