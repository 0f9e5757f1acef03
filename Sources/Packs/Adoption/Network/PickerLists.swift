import ClosetCore
import ClosetLanguage
import ClosetNetwork

/// The 시군구, shelter and breed lists fetched this session, each once (they change when a
/// shelter opens, not between statements), and the filters' names resolved against them. A
/// code (all digits) is taken as given, with no request.
struct PickerLists {
    static let districtNames = NameList("adoption.district", placeholder: "<시군구>")
    static let shelterNames = NameList("adoption.shelter", placeholder: "<shelter>")
    static let breedNames = NameList("adoption.breed", placeholder: "<breed>")

    /// A fetched list, by which list and its parent's codes (`districts 6110000`).
    private var fetched: [String: [PickerItem]] = [:]
    /// The order they were fetched in, for completion and the catalog.
    private var order: [String] = []

    /// The list for `parameters`, fetched on first use.
    mutating func items(_ list: AnimalAPI.PickerList, _ parameters: [QueryItem], network: Network)
        throws(NetworkError) -> [PickerItem]
    {
        let key = ([list.rawValue] + parameters.map(\.value)).joined(separator: " ")
        if let items = fetched[key] { return items }
        let items = try AnimalAPI.list(list, parameters, network: network)
        fetched[key] = items
        order.append(key)
        return items
    }

    /// Every item of `list` fetched so far, once each, in the order seen.
    func seen(_ list: AnimalAPI.PickerList) -> [PickerItem] {
        var codes = Set<String>()
        return order.filter { $0.hasPrefix(list.rawValue + " ") }.flatMap { fetched[$0] ?? [] }
            .filter { codes.insert($0.code).inserted }
    }

    /// The code `text` names in `items` (what `within` says, for messages: `서울특별시`): a code
    /// as given, else the one item of that name (ASCII letters in any case). A name no item or
    /// several items have is refused, saying which there are.
    static func code(
        _ text: String, in items: () throws -> [PickerItem], what: String, within: String, at range: SourceRange?
    ) throws -> String {
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit) { return text }
        let all = try items()
        let named = all.filter { $0.name.lowercased() == text.lowercased() }
        if named.count == 1 { return named[0].code }
        if named.count > 1 {
            throw Diagnostic.ambiguousName(text, what, within: within, codes: named.map(\.code), at: range)
        }
        // A part of a name finds it when only one has it (강남 for 강남구).
        let partly = all.filter { $0.name.lowercased().contains(text.lowercased()) }
        if partly.count == 1, !text.isEmpty { return partly[0].code }
        throw Diagnostic.unknownName(text, what, within: within, names: all.map(\.name), at: range)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
