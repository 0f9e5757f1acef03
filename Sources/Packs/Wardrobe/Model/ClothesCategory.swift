import ClosetCore

/// The app's `ClothesCategory`. Declaration order is display order: sections, style slots
/// and grouped results all follow it.
package enum ClothesCategory: Int, Vocabulary, Comparable, Codable {
    case outer, top, bottom, shoes, accessory

    package static let vocabularyName = "category"
    package static let info = makeInfo()

    package var englishName: String {
        switch self {
        case .outer: "outer"
        case .top: "top"
        case .bottom: "bottom"
        case .shoes: "shoes"
        case .accessory: "accessory"
        }
    }

    package var korean: String {
        switch self {
        case .outer: "외투"
        case .top: "상의"
        case .bottom: "하의"
        case .shoes: "신발"
        case .accessory: "악세사리"
        }
    }

    package var aliases: [String] {
        switch self {
        case .accessory: ["액세서리"]
        case .outer, .top, .bottom, .shoes: []
        }
    }

    static package func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
