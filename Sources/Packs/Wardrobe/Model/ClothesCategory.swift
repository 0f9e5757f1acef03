import ClosetCore

/// The app's `ClothesCategory`. Declaration order is display order: sections, style slots
/// and grouped results all follow it.
public enum ClothesCategory: Int, Vocabulary, Comparable, Codable {
    case outer, top, bottom, shoes, accessory

    public static let vocabularyName = "category"
    public static let info = makeInfo()

    public var englishName: String {
        switch self {
        case .outer: "outer"
        case .top: "top"
        case .bottom: "bottom"
        case .shoes: "shoes"
        case .accessory: "accessory"
        }
    }

    public var korean: String {
        switch self {
        case .outer: "외투"
        case .top: "상의"
        case .bottom: "하의"
        case .shoes: "신발"
        case .accessory: "악세사리"
        }
    }

    public var aliases: [String] {
        switch self {
        case .accessory: ["액세서리"]
        case .outer, .top, .bottom, .shoes: []
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
