import Foundation

/// A shelter animal as the v2 API gives it: every field kept by its API name (`DogRecords`
/// lists them in the API's order), with the labels the app shows.
package struct ShelterDog: Sendable, Equatable {
    /// The API's values by field name (numbers the API sends as numbers kept as their text).
    package var fields: [String: String]

    package init(fields: [String: String]) { self.fields = fields }

    package subscript(_ name: String) -> String { fields[name] ?? "" }

    package var desertionNo: String { self["desertionNo"] }

    /// 수컷, 암컷, 미상.
    package var sexLabel: String {
        switch self["sexCd"] {
        case "M": "수컷"
        case "F": "암컷"
        default: "미상"
        }
    }

    /// 중성화 O, 중성화 X, 중성화 미상.
    package var neuteredLabel: String {
        switch self["neuterYn"] {
        case "Y": "중성화 O"
        case "N": "중성화 X"
        default: "중성화 미상"
        }
    }

    /// `2024-05-01 ~ 2024-05-11`.
    package var noticePeriod: String {
        "\(Self.dashed(self["noticeSdt"])) ~ \(Self.dashed(self["noticeEdt"]))"
    }

    static func dashed(_ text: String) -> String {
        guard text.count == 8, text.allSatisfy(\.isNumber) else { return text }
        return "\(text.prefix(4))-\(text.dropFirst(4).prefix(2))-\(text.suffix(2))"
    }
}
