import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The animal-protection API v2 as `closet serve --replay <folder>` answers it
/// (`/abandonmentPublic_v2` and the filters' lists `/sigungu_v2`, `/shelter_v2`, `/kind_v2`, under the server's root or the API's own base path), from
/// recordings. Errors come as its gateway sends them, in XML even when JSON was asked for: no
/// `serviceKey` is reason 30 (key not registered, in a 200), `--fail` reason 22 (the daily
/// limit, a 403). A request no recording answers gets the JSON envelope with `resultCode` 03
/// (`NODATA_ERROR`). The dogs' `popfile1`/`popfile2` point at the server, which answers a
/// picture in the dog-picture cache from there. A page asked in another size than recorded
/// (`numOfRows=20`) is cut from the recorded pages that hold its rows, `totalCount` kept.
enum AnimalService {
    static let api = ServedAPI.replaying(
        AnimalAPI.api, routes: ["/abandonmentPublic_v2", "/sigungu_v2", "/shelter_v2", "/kind_v2"],
        summary:
            "the animal-protection API v2, from --replay recordings: GET /abandonmentPublic_v2?…, and the filters' lists /sigungu_v2, /shelter_v2, /kind_v2",
        pictureKeys: ["popfile1", "popfile2", "popfile", "filename"],
        keyless: { request in
            meaning.value("serviceKey", in: request.query) == nil
                ? gateway("SERVICE_KEY_IS_NOT_REGISTERED_ERROR", "30", status: 200) : nil
        },
        unmatched: { _ in
            let body =
                #"{"response":{"header":{"reqNo":0,"resultCode":"03","resultMsg":"NODATA_ERROR (closet serve: no recording answers this request)"}}}"#
            return HTTPResponse(
                status: 200, headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")],
                body: Data(body.utf8))
        },
        failure: { _ in gateway("LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR", "22", status: 403) },
        picture: { url, context in context.session.state(AdoptionState.self)?.pictures.kept(url) },
        // The API's defaults: the first page of ten.
        meaning: meaning,
        beyondRecordings: { request, recorded in page(request, cutFrom: recorded) },
        credentialQuery: [("serviceKey", "closet-fixtures")])

    /// The gateway reads parameter names in any case (`ServiceKey`, `numofrows`) and `_type`'s
    /// value too (`JSON`).
    static let meaning = QueryMeaning(
        defaults: ["pageNo": "1", "numOfRows": "10"], caselessNames: true, caselessValues: ["_type"])

    /// A page no recording holds as asked, cut from recorded pages of the same search that
    /// hold its rows (an app's 20 a page answered from closet's recorded pages of 10), the
    /// search's `totalCount` kept; nil when some of its rows were never recorded.
    static func page(
        _ request: ServedRequest, cutFrom recorded: [(query: [(name: String, value: String)], response: HTTPResponse)]
    ) -> HTTPResponse? {
        func search(_ query: [(name: String, value: String)]) -> [String] {
            meaning.normalized(query).filter { !$0.hasPrefix("pageNo=") && !$0.hasPrefix("numOfRows=") }
        }
        guard let page = Int(meaning.value("pageNo", in: request.query) ?? "1"),
            let size = Int(meaning.value("numOfRows", in: request.query) ?? "10"),
            page >= 1, (1...1000).contains(size)
        else { return nil }
        let wanted = search(request.query)
        var rows: [Int: Any] = [:]
        var total: Int?
        for (query, response) in recorded where search(query) == wanted {
            guard let recordedPage = Int(meaning.value("pageNo", in: query) ?? "1"),
                let recordedSize = Int(meaning.value("numOfRows", in: query) ?? "10"),
                let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
                let body = (object["response"] as? [String: Any])?["body"] as? [String: Any]
            else { continue }
            total = body["totalCount"] as? Int ?? total
            let items = (body["items"] as? [String: Any])?["item"] as? [Any] ?? []
            // Checked arithmetic: a hand-edited recording's page may be any number.
            let (start, overflow) = (recordedPage - 1).multipliedReportingOverflow(by: recordedSize)
            guard !overflow, recordedPage >= 1, start <= Int.max - items.count else { continue }
            for (offset, item) in items.enumerated() { rows[start + offset] = item }
        }
        guard let total else { return nil }
        // A client's page may be any number: past the rows, never a trap.
        let (first, overflow) = (page - 1).multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        let wantedRows = first < total ? Array(first..<min(total, first + size)) : []
        // Past the last row: the API's own "no data", as for any page nothing answers.
        guard !wantedRows.isEmpty, wantedRows.allSatisfy({ rows[$0] != nil }) else { return nil }
        let answer: [String: Any] = [
            "response": [
                "header": ["reqNo": 0, "resultCode": "00", "resultMsg": "NORMAL SERVICE."],
                "body": [
                    "items": ["item": wantedRows.compactMap { rows[$0] }], "numOfRows": size, "pageNo": page,
                    "totalCount": total,
                ],
            ]
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]) else { return nil }
        return HTTPResponse(
            status: 200, headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")], body: data)
    }

    /// `<OpenAPI_ServiceResponse><cmmMsgHeader>…`: the gateway's own errors.
    static func gateway(_ message: String, _ reason: String, status: Int) -> HTTPResponse {
        let body =
            "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>\(message)</returnAuthMsg>"
            + "<returnReasonCode>\(reason)</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>"
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/xml")], body: Data(body.utf8))
    }
}
