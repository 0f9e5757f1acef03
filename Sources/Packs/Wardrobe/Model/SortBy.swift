import ClosetCore

/// The app's `SortBy`: by creation time, newest or oldest first.
public enum SortBy: Int, Vocabulary, Codable {
    case new, old

    public static let vocabularyName = "sort"
    public static let info = makeInfo()
    public static let spelledOutInUsage = true

    public var englishName: String {
        switch self {
        case .new: "new"
        case .old: "old"
        }
    }

    public var korean: String {
        switch self {
        case .new: "최신순"
        case .old: "오래된순"
        }
    }
}
