import Foundation

/// A small animal-protection API (v2) on a loopback server: 23 animals, filters by
/// `upkind`, `kind`, `upr_cd`, `org_cd`, `care_reg_no`, `state`, `bgnde`/`endde` (on `happenDt`)
/// and `desertion_no`, pages of `numOfRows`; the filters' lists `sigungu_v2` (two 시군구 a 시도),
/// `shelter_v2` (one shelter a 시군구) and `kind_v2` (the breeds of a species). Its quirks are the real one's: `"items":""` for no result, one result as
/// an object, XML gateway errors even with `_type=json`.
///
/// Pictures are served under `/files` with an `ETag`, and a `304` to a matching
/// `If-None-Match`; the last animal's picture is an HTML page.
///
/// Special cases: a wrong `serviceKey` is XML reason 30 (HTTP 200); `bgnde=20000101` is XML
/// reason 22 (rate limit, HTTP 403); `bgnde=20010101` is `resultCode` 10 in JSON.
package enum AnimalFixture {
    /// As issued: `+`, `/` and `=` must reach the server percent-encoded.
    package static let serviceKey = "fixture/Key+with=="

    struct Animal {
        var number: String
        var kind: (upkind: String, name: String, kindCd: String, kindNm: String)
        var region: (code: String, name: String)
        var district: (code: String, name: String)
        var happened: String
        var state: String
        var sex: String
        var neuter: String
        var age: String
    }

    static let kinds = [
        ("417000", "개", "000114", "믹스견"), ("417000", "개", "000054", "진도견"), ("422400", "고양이", "000200", "코리안숏헤어"),
        ("417000", "개", "000056", "푸들"), ("429900", "기타축", "000117", "토끼"),
    ]
    static let regions = [("6110000", "서울특별시"), ("6410000", "경기도"), ("6260000", "부산광역시")]
    /// Each region's two 시군구, in `regions`' order.
    static let districts = [
        [("3220000", "강남구"), ("3230000", "송파구")], [("3740000", "수원시"), ("3940000", "고양시")],
        [("3360000", "해운대구"), ("3350000", "수영구")],
    ]

    /// A 시군구's one shelter: its number, by the 시군구's place in `districts`.
    static func shelterNumber(_ district: String) -> String {
        let index = Array(districts.joined()).firstIndex { $0.0 == district } ?? 0
        return "3110000202400\(index)"
    }

    static let animals: [Animal] = (0..<23).map { n in
        Animal(
            number: "4485482024001\(String(format: "%02d", n))", kind: kinds[n % kinds.count],
            region: regions[n % regions.count], district: districts[n % regions.count][(n / 3) % 2],
            happened: "202405\(String(format: "%02d", 1 + n))",
            state: n % 3 == 0 ? "notice" : "protect", sex: ["M", "F", "Q"][n % 3],
            neuter: ["Y", "N", "U"][(n / 2) % 3],
            age: "20\(22 + n % 3)(년생)")
    }

    /// `yyyyMMdd` ten days on, by the calendar (`20240522` → `20240601`, never `20240532`).
    static func tenDaysAfter(_ day: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: Int(day.prefix(4)), month: Int(day.dropFirst(4).prefix(2)), day: Int(day.suffix(2)))
        guard let start = calendar.date(from: components), let end = calendar.date(byAdding: .day, value: 10, to: start)
        else { return day }
        let parts = calendar.dateComponents([.year, .month, .day], from: end)
        return String(format: "%04d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func json(_ animal: Animal, imageBase: String) -> String {
        let (upkind, upKindNm, kindCd, kindNm) = animal.kind
        let end = Self.tenDaysAfter(animal.happened)
        return """
            {"desertionNo":"\(animal.number)","happenDt":"\(animal.happened)","happenPlace":"\(animal.region.name) 공원 앞",\
            "kindFullNm":"[\(upKindNm)] \(kindNm)","upKindCd":"\(upkind)","upKindNm":"\(upKindNm)","kindCd":"\(kindCd)",\
            "kindNm":"\(kindNm)","colorCd":"갈색","age":"\(animal.age)","weight":"\(3 + animal.number.suffix(1).count)(Kg)",\
            "noticeNo":"\(animal.region.name.prefix(2))-2024-\(animal.number.suffix(3))","noticeSdt":"\(animal.happened)",\
            "noticeEdt":"\(end)","popfile1":"\(imageBase)/\(animal.number)_1.jpg","popfile2":"\(imageBase)/\(animal.number)_2.jpg",\
            "processState":"\(animal.state == "notice" ? "공고중" : "보호중")","sexCd":"\(animal.sex)","neuterYn":"\(animal.neuter)",\
            "specialMark":"사람을 잘 따름","careRegNo":"\(shelterNumber(animal.district.code))","careNm":"\(animal.region.name.prefix(2)) 동물보호센터",\
            "careTel":"02-1234-5678","careAddr":"\(animal.region.name) 보호로 1","careOwnerNm":"보호소장",\
            "orgNm":"\(animal.region.name)","updTm":"2024-06-01 10:00:00.0"}
            """
    }

    static func xml(_ message: String, _ reason: String) -> String {
        """
        <OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg><returnAuthMsg>\(message)</returnAuthMsg><returnReasonCode>\(reason)</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>
        """
    }

    /// Which world it serves: the goldens' (a dog whose picture is a web page),
    /// or the examples' (every dog's picture a 400×300 JPEG, as the app's list shows them).
    package enum World: Sendable {
        case goldens, examples
    }

    package static func handler(imageBase: String?, world: World = .goldens)
        -> @Sendable (LoopbackServer.Request, String) -> LoopbackServer.Action
    {
        { request, serverBase in
            let images = imageBase ?? serverBase + "/files"
            let query = request.query
            if request.path.hasPrefix("/files/") {
                let name = String(request.path.dropFirst("/files/".count))
                let tag = "\"\(name)-v1\""
                if request.header("If-None-Match") == tag {
                    return .respond(status: 304, headers: ["ETag": tag], body: Data())
                }
                // The goldens' dog whose picture is a web page; every other a 400×300 JPEG.
                if world == .goldens, name.hasPrefix("448548202400122") {
                    return .respond(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html/>".utf8))
                }
                return .respond(
                    status: 200, headers: ["Content-Type": "image/jpeg", "ETag": tag],
                    body: Data(SampleScenes.jpeg(name, width: 400, height: 300)))
            }
            let lists = ["/sigungu_v2", "/shelter_v2", "/kind_v2"]
            guard request.path == "/abandonmentPublic_v2" || lists.contains(request.path) else {
                return .json("{}", status: 404)
            }
            guard query["serviceKey"] == serviceKey else {
                return .respond(
                    status: 200, headers: ["Content-Type": "text/xml"],
                    body: Data(xml("SERVICE_KEY_IS_NOT_REGISTERED_ERROR", "30").utf8))
            }
            if lists.contains(request.path) { return list(request.path, query) }
            if query["bgnde"] == "20000101" {
                return .respond(
                    status: 403, headers: ["Content-Type": "text/xml"],
                    body: Data(xml("LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR", "22").utf8))
            }
            if query["bgnde"] == "20010101" {
                return .json(
                    #"{"response":{"header":{"reqNo":1,"resultCode":"10","resultMsg":"INVALID_REQUEST_PARAMETER_ERROR"}}}"#
                )
            }
            var found = animals
            if let kind = query["upkind"] { found = found.filter { $0.kind.upkind == kind } }
            if let region = query["upr_cd"] { found = found.filter { $0.region.code == region } }
            if let district = query["org_cd"] { found = found.filter { $0.district.code == district } }
            if let shelter = query["care_reg_no"] {
                found = found.filter { shelterNumber($0.district.code) == shelter }
            }
            if let breed = query["kind"] { found = found.filter { $0.kind.kindCd == breed } }
            if let state = query["state"] { found = found.filter { $0.state == state } }
            if let from = query["bgnde"] { found = found.filter { $0.happened >= from } }
            if let to = query["endde"] { found = found.filter { $0.happened <= to } }
            if let number = query["desertion_no"] { found = found.filter { $0.number == number } }
            let rows = Int(query["numOfRows"] ?? "10") ?? 10
            let page = Int(query["pageNo"] ?? "1") ?? 1
            let start = (page - 1) * rows
            let slice = start < found.count ? Array(found[start..<min(found.count, start + rows)]) : []
            let items: String
            switch slice.count {
            case 0: items = "\"\""
            case 1: items = #"{"item":\#(json(slice[0], imageBase: images))}"#
            default: items = #"{"item":[\#(slice.map { json($0, imageBase: images) }.joined(separator: ","))]}"#
            }
            return .json(
                #"{"response":{"header":{"reqNo":12345,"resultCode":"00","resultMsg":"NORMAL SERVICE."},"body":{"items":\#(items),"numOfRows":\#(rows),"pageNo":\#(page),"totalCount":\#(found.count)}}}"#
            )
        }
    }

    /// A filter list: the items of one page of all, as the API sends them (`"items":""` for
    /// none); each needs its parent's code, as the real one does.
    static func list(_ path: String, _ query: [String: String]) -> LoopbackServer.Action {
        let items: [String]
        switch path {
        case "/sigungu_v2":
            let index = regions.firstIndex { $0.0 == query["upr_cd"] }
            items =
                index.map { region in
                    districts[region].map {
                        #"{"uprCd":"\#(regions[region].0)","orgCd":"\#($0.0)","orgdownNm":"\#($0.1)"}"#
                    }
                } ?? []
        case "/shelter_v2":
            let district = districts.joined().first { $0.0 == query["org_cd"] }
            let region = regions.indices.first { districts[$0].contains { $0.0 == query["org_cd"] } }
            if let district, let region, regions[region].0 == query["upr_cd"] {
                let name = regions[region].1.prefix(2) + " 동물보호센터"
                items = [#"{"careRegNo":"\#(shelterNumber(district.0))","careNm":"\#(name)"}"#]
            } else {
                items = []
            }
        default:
            var seen = Set<String>()
            items = kinds.filter { $0.0 == query["up_kind_cd"] && seen.insert($0.2).inserted }
                .map { #"{"kindCd":"\#($0.2)","knm":"\#($0.3)"}"# }
        }
        let body = items.isEmpty ? "\"\"" : #"{"item":[\#(items.joined(separator: ","))]}"#
        return .json(
            #"{"response":{"header":{"reqNo":12345,"resultCode":"00","resultMsg":"NORMAL SERVICE."},"body":{"items":\#(body),"numOfRows":1000,"pageNo":1,"totalCount":\#(items.count)}}}"#
        )
    }

    package static func server(imageBase: String? = nil, world: World = .goldens) throws -> LoopbackServer {
        let handler = handler(imageBase: imageBase, world: world)
        let base = UnsplashFixture.BaseBox()
        let server = try LoopbackServer { request in handler(request, base.value) }
        base.value = server.baseURL
        return server
    }

    package static func environment(_ server: LoopbackServer) -> [String: String] {
        ["CLOSET_ANIMAL_URL": server.baseURL, "ANIMAL_API_KEY": serviceKey, "CLOSET_HTTP_HELPER": HelperPath.path]
    }
}
