import ClosetCore
import Foundation

/// Anything with a creation time: clothes and styles sort the same way.
package protocol CreationDated {
    var createdAt: Date { get }
}

extension Clothes: CreationDated {}
extension Style: CreationDated {}

extension Array where Element: CreationDated {
    /// A sort by `createdAt`, newest or oldest first. Equal instants (rows added in the same
    /// millisecond, as a script adds them) go by their order here, which is the order they
    /// were added: the later-added first when newest first, last when oldest first. So
    /// `sort=new` is exactly `sort=old` reversed.
    package func sorted(by sort: SortBy) -> [Element] {
        // Sort positions by a plain array of keys: moving Ints is far cheaper than moving
        // structs holding strings, and the position breaks ties.
        let keys: [Double] = map { $0.createdAt.timeIntervalSince1970 }
        var order = [Int](0..<count)
        let newestFirst = sort == .new
        order.sort { (a: Int, b: Int) -> Bool in
            let x = keys[a]
            let y = keys[b]
            if x == y { return newestFirst ? a > b : a < b }
            return newestFirst ? x > y : x < y
        }
        return order.map { self[$0] }
    }
}
