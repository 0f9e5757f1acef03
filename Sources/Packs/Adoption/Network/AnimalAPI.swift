import ClosetNetwork
import Foundation

/// The animal-protection open API, v2 (apis.md): GET `/abandonmentPublic_v2` under the base.
/// The service key is sent as issued and percent-encoded strictly here (a key often holds
/// `+`, `/` and `=`, which `URLComponents` leaves alone and the server reads as a space).
/// The envelope's `resultCode` other than `00`, an `"items":""` for no result, and XML
/// gateway errors (even with `_type=json`) are all handled.
enum AnimalAPI {
    static let api = RemoteAPI(
        name: "animal", title: "animal-protection API", baseVariable: "CLOSET_ANIMAL_URL",
        defaultBase: "https://apis.data.go.kr/1543061/abandonmentPublicService_v2", keyVariable: "ANIMAL_API_KEY")
    static let pageSize = 10

    struct Query {
        var region: Region?
        var kind: AnimalKind?
        var state: ShelterState?
        var from: String?
        var to: String?
        var desertionNo: String?
        /// The 시군구's `org_cd`, the shelter's `care_reg_no`, the breed's `kind` (codes the
        /// filters' names were resolved to).
        var district: String?
        var shelter: String?
        var breed: String?
        var page = 1
    }

    struct Page {
        var dogs: [ShelterDog]
        var pageNo: Int
        var totalCount: Int
    }

    static func page(_ query: Query, network: Network) throws(NetworkError) -> Page {
        var items: [QueryItem] = []
        if let from = query.from { items.append(QueryItem("bgnde", from)) }
        if let to = query.to { items.append(QueryItem("endde", to)) }
        if let kind = query.kind { items.append(QueryItem("upkind", kind.upkind)) }
        if let breed = query.breed { items.append(QueryItem("kind", breed)) }
        if let region = query.region { items.append(QueryItem("upr_cd", region.uprCode)) }
        if let district = query.district { items.append(QueryItem("org_cd", district)) }
        if let shelter = query.shelter { items.append(QueryItem("care_reg_no", shelter)) }
        if let state = query.state { items.append(QueryItem("state", state.englishName)) }
        if let number = query.desertionNo { items.append(QueryItem("desertion_no", number)) }
        items.append(QueryItem("pageNo", String(query.page)))
        items.append(QueryItem("numOfRows", String(pageSize)))
        let (body, url) = try get("/abandonmentPublic_v2", items, network: network)
        return try decode(body, url: url)
    }

    /// GET `path` under the base with the key and `_type=json` before `parameters`: the answer's
    /// body (a gateway or status error thrown) and the URL as messages show it.
    static func get(_ path: String, _ parameters: [QueryItem], network: Network) throws(NetworkError) -> (
        body: Data, url: String
    ) {
        let key = try network.key(of: api)
        let items = [QueryItem("serviceKey", key, isSecret: true), QueryItem("_type", "json")] + parameters
        let request = HTTPRequest(.get, api: api.name, base: try network.base(of: api) ?? "", path: path, query: items)
        let response = try network.send(request)
        if let gateway = gatewayError(response.body) { throw .api(name: api.title, message: gateway) }
        guard response.isSuccess else {
            throw .status(
                response.status, statusLine: response.statusLine, method: "GET", url: request.displayURL, detail: nil)
        }
        return (response.body, request.displayURL)
    }

    /// `<OpenAPI_ServiceResponse><cmmMsgHeader>...`: the gateway's own errors, in XML even when
    /// JSON was asked for (30: key not registered, 22: rate limit).
    static func gatewayError(_ body: Data) -> String? {
        guard let text = String(data: body.prefix(4096), encoding: .utf8),
            text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<")
        else { return nil }
        func element(_ name: String) -> String? {
            guard let start = text.range(of: "<\(name)>"),
                let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
            else { return nil }
            return String(text[start.upperBound..<end.lowerBound])
        }
        let reason = element("returnReasonCode") ?? ""
        let message = element("returnAuthMsg") ?? element("errMsg") ?? "an error"
        switch reason {
        case "30": return "the service key is not registered (\(message), \(reason)); check ANIMAL_API_KEY"
        case "22": return "too many requests for this service key today (\(message), \(reason))"
        default: return reason.isEmpty ? message : "\(message) (\(reason))"
        }
    }

    static func decode(_ body: Data, url: String) throws(NetworkError) -> Page {
        let (items, bodyObject) = try envelope(body, url: url)
        let dogs = items.map { ShelterDog(fields: $0) }
        return Page(
            dogs: dogs, pageNo: Int("\(bodyObject["pageNo"] ?? 1)") ?? 1,
            totalCount: Int("\(bodyObject["totalCount"] ?? dogs.count)") ?? dogs.count)
    }

    /// The envelope's items, each field as text, and its body (paging); its `resultCode` other
    /// than `00` is the API's error.
    static func envelope(_ body: Data, url: String) throws(NetworkError) -> (
        items: [[String: String]], body: [String: Any]
    ) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let response = object["response"] as? [String: Any]
        else { throw .malformed(url: url, expected: "the animal-protection JSON envelope") }
        let header = response["header"] as? [String: Any] ?? [:]
        let code = "\(header["resultCode"] ?? "00")"
        guard code == "00" else {
            throw .api(name: api.title, message: "\(header["resultMsg"] ?? "an error") (\(code))")
        }
        let bodyObject = response["body"] as? [String: Any] ?? [:]
        var rawItems: [[String: Any]] = []
        // No result comes as `"items":""`; one result may come as an object, not a list.
        if let items = bodyObject["items"] as? [String: Any] {
            if let list = items["item"] as? [[String: Any]] {
                rawItems = list
            } else if let single = items["item"] as? [String: Any] {
                rawItems = [single]
            }
        }
        let items = rawItems.map { item in item.reduce(into: [String: String]()) { $0[$1.key] = "\($1.value)" } }
        return (items, bodyObject)
    }
}
