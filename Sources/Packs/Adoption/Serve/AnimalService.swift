import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The animal-protection API v2 as `closet serve --replay <folder>` answers it
/// (`/abandonmentPublic_v2`, under the server's root or the API's own base path), from
/// recordings. Errors come as its gateway sends them, in XML even when JSON was asked for: no
/// `serviceKey` is reason 30 (key not registered, in a 200), `--fail` reason 22 (the daily
/// limit, a 403). A request no recording answers gets the JSON envelope with `resultCode` 03
/// (`NODATA_ERROR`). The dogs' `popfile1`/`popfile2` point at the server, which answers a
/// picture in the dog-picture cache from there.
enum AnimalService {
    static let api = ServedAPI.replaying(
        AnimalAPI.api, routes: ["/abandonmentPublic_v2"],
        summary: "the animal-protection API v2, from --replay recordings: GET /abandonmentPublic_v2?…",
        pictureKeys: ["popfile1", "popfile2", "popfile", "filename"],
        keyless: { request in
            request.query("serviceKey") == nil ? gateway("SERVICE_KEY_IS_NOT_REGISTERED_ERROR", "30", status: 200) : nil
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
        meaning: QueryMeaning(defaults: ["pageNo": "1", "numOfRows": "10"]))

    /// `<OpenAPI_ServiceResponse><cmmMsgHeader>…`: the gateway's own errors.
    static func gateway(_ message: String, _ reason: String, status: Int) -> HTTPResponse {
        let body =
            "<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>\(message)</returnAuthMsg>"
            + "<returnReasonCode>\(reason)</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>"
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/xml")], body: Data(body.utf8))
    }
}
