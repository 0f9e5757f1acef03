import ClosetNetwork
import Foundation

/// The API's lists its search filters are picked from (apis.md): a 시도's 시군구 (`sigungu_v2`,
/// items `{uprCd, orgCd, orgdownNm}`), a 시군구's shelters (`shelter_v2`, `{careRegNo, careNm}`),
/// a species' breeds (`kind_v2`, `{kindCd, knm}`). Each is one request of up to a thousand rows.
extension AnimalAPI {
    enum PickerList: String, Sendable {
        case districts, shelters, breeds

        var path: String {
            switch self {
            case .districts: "/sigungu_v2"
            case .shelters: "/shelter_v2"
            case .breeds: "/kind_v2"
            }
        }

        /// The item fields that hold the code and the name. A breed's name was `KNm` in v1's
        /// XML and `knm` in its JSON; each is read.
        var codeField: String {
            switch self {
            case .districts: "orgCd"
            case .shelters: "careRegNo"
            case .breeds: "kindCd"
            }
        }

        var nameFields: [String] {
            switch self {
            case .districts: ["orgdownNm"]
            case .shelters: ["careNm"]
            case .breeds: ["knm", "KNm", "kindNm"]
            }
        }
    }

    /// One list, for `parameters` (`upr_cd`, `org_cd`, `up_kind_cd`): the rows with both a code
    /// and a name, in the API's order.
    static func list(_ list: PickerList, _ parameters: [QueryItem], network: Network) throws(NetworkError)
        -> [PickerItem]
    {
        let (body, url) = try get(list.path, parameters + [QueryItem("numOfRows", "1000")], network: network)
        return try envelope(body, url: url).items.compactMap { item in
            guard let code = item[list.codeField], !code.isEmpty,
                let name = list.nameFields.lazy.compactMap({ item[$0] }).first(where: { !$0.isEmpty })
            else { return nil }
            return PickerItem(code: code, name: name)
        }
    }
}
