import ClosetCore

/// The app's `SortBy`: by creation time, newest or oldest first.
package enum SortBy: Int, Vocabulary, Codable {
    case new, old

    package static let vocabularyName = "sort"
    package static let info = makeInfo()
    static package let spelledOutInUsage = true

    package var englishName: String {
        switch self {
        case .new: "new"
        case .old: "old"
        }
    }

    package var korean: String {
        switch self {
        case .new: "최신순"
        case .old: "오래된순"
        }
    }
}
