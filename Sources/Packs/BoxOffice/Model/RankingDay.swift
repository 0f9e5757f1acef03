import ClosetCore

/// `day=previous|next`: the day before or after the ranking listed last, as the app's calendar
/// steps from the day it shows.
enum RankingDay: Int, Vocabulary, Codable {
    case previous, next

    package static let vocabularyName = "day"
    package static let info = makeInfo()
    static package let spelledOutInUsage = true

    package var englishName: String {
        switch self {
        case .previous: "previous"
        case .next: "next"
        }
    }

    package var korean: String {
        switch self {
        case .previous: "전날"
        case .next: "다음날"
        }
    }
}
