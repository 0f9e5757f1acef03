/// The feed's two-column masonry layout: each photo goes to the shorter column
/// (`column = yOffset[0] > yOffset[1] ? 1 : 0`), which then grows by the photo's display
/// height and the cell's padding above and below.
package struct MasonryLayout: Sendable, Equatable {
    package enum Column: String, Sendable {
        case left, right
    }

    static let cellPadding = 6
    package private(set) var yOffset = [0, 0]

    package init() {}

    package mutating func place(displayHeight: Int) -> Column {
        let column = yOffset[0] > yOffset[1] ? 1 : 0
        yOffset[column] += displayHeight + 2 * Self.cellPadding
        return column == 0 ? .left : .right
    }
}
