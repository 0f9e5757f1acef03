import Foundation

/// A small KOBIS and Kakao image search on one loopback server: KOBIS under `/kobis`,
/// Kakao under `/kakao`, posters under `/img`. The facts are the reference's fixtures
/// (2012-01-01: 미션임파서블:고스트프로토콜 first, 353,274 / 5,328,435; movie 20124079
/// 광해, 왕이 된 남자).
///
/// Special cases: 2012-01-02 has a non-numeric audience count; any other day lists three
/// movies (광해 new); a wrong KOBIS key is `faultInfo` 320010 in a 200; a missing
/// `targetDt` is 320102; "마이 웨이" has no poster; "셜록홈즈 : 그림자 게임"'s first poster is
/// an HTML page; a wrong Kakao key is a 401.
package enum BoxOfficeFixture {
    package static let kobisKey = "fixture-kobis-key"
    package static let kakaoKey = "fixture-kakao-key"

    struct Movie {
        var code, title, english, year, open, runtime, grade, nation: String
        var genres: [String]
        var directors: [String]
        var actors: [String]
    }

    /// Which world it serves: the goldens' (its special cases: a movie with no poster, a
    /// poster that is a web page, a result that is not a URL; every other poster 300×430), or the
    /// examples' (every ranked movie of 2012-01-01 with its details and its posters, 300×430
    /// with 100×143 thumbnails, as the app shows them).
    package enum World: Sendable {
        case goldens, examples
    }

    /// The details of a ranked movie the fixture has no facts for: its title, code and
    /// opening day, the rest plain.
    static func plainMovie(_ row: (String, String, String, String, String, String, String)) -> Movie {
        let (title, code, _, _, _, _, open) = row
        return Movie(
            code: code, title: title, english: "", year: String(open.prefix(4)),
            open: open.replacingOccurrences(of: "-", with: ""), runtime: "110", grade: "전체관람가", nation: "한국",
            genres: ["드라마"], directors: [], actors: [])
    }

    static func movies(_ world: World) -> [Movie] {
        guard world == .examples else { return movies }
        return movies + newYear.filter { row in !movies.contains { $0.code == row.1 } }.map(plainMovie)
    }

    static let movies: [Movie] = [
        Movie(
            code: "20112207", title: "미션임파서블:고스트프로토콜", english: "Mission: Impossible - Ghost Protocol",
            year: "2011", open: "20111215", runtime: "132", grade: "12세이상관람가", nation: "미국",
            genres: ["액션", "어드벤처"], directors: ["브래드 버드"], actors: ["톰 크루즈", "제레미 레너"]),
        Movie(
            code: "20124079", title: "광해, 왕이 된 남자", english: "Masquerade", year: "2012", open: "20120913",
            runtime: "131", grade: "15세이상관람가", nation: "한국", genres: ["사극", "드라마"], directors: ["추창민"],
            actors: ["이병헌", "류승룡", "한효주"]),
    ]

    /// 2012-01-01's ranking: title, code, rankInten, NEW/OLD, audiCnt, audiAcc, openDt.
    static let newYear: [(String, String, String, String, String, String, String)] = [
        ("미션임파서블:고스트프로토콜", "20112207", "0", "OLD", "353274", "5328435", "2011-12-15"),
        ("마이 웨이", "20112621", "1", "OLD", "195618", "1730048", "2011-12-21"),
        ("셜록홈즈 : 그림자 게임", "20111930", "-1", "OLD", "159856", "1473041", "2011-12-21"),
        ("퍼펙트 게임", "20112608", "0", "OLD", "103642", "616532", "2011-12-21"),
        ("프렌즈: 몬스터섬의비밀", "20112726", "3", "OLD", "68930", "238452", "2011-12-29"),
        ("라이온 킹", "20112705", "0", "NEW", "61220", "73591", "2011-12-31"),
        ("오싹한 연애", "20111945", "-2", "OLD", "60342", "2630521", "2011-12-01"),
        ("극장판 포켓몬스터 베스트 위시", "20112763", "-1", "OLD", "50152", "201573", "2011-12-22"),
        ("앨빈과 슈퍼밴드3", "20112594", "-3", "OLD", "35621", "326874", "2011-12-29"),
        ("틴틴: 유니콘호의 비밀", "20112412", "-1", "OLD", "14287", "746103", "2011-12-07"),
    ]

    static let otherDay: [(String, String, String, String, String, String, String)] = [
        ("광해, 왕이 된 남자", "20124079", "0", "NEW", "288716", "288716", "2012-09-13"),
        ("미션임파서블:고스트프로토콜", "20112207", "2", "OLD", "1204", "7553940", "2011-12-15"),
        ("마이 웨이", "20112621", "-1", "OLD", "97", "2142670", "2011-12-21"),
    ]

    static func daily(
        _ day: String, _ rows: [(String, String, String, String, String, String, String)], corrupt: Bool = false
    ) -> String {
        let list = rows.enumerated().map { index, row in
            let (title, code, inten, oldNew, count, total, open) = row
            let audience = corrupt && index == 1 ? "12a" : count
            return """
                {"rnum":"\(index + 1)","rank":"\(index + 1)","rankInten":"\(inten)","rankOldAndNew":"\(oldNew)",\
                "movieCd":"\(code)","movieNm":"\(title)","openDt":"\(open)","salesAmt":"\(Int(count)! * 8000)",\
                "salesShare":"20.1","salesInten":"0","salesChange":"0","salesAcc":"\(Int(total)! * 8000)",\
                "audiCnt":"\(audience)","audiInten":"0","audiChange":"0","audiAcc":"\(total)","scrnCnt":"700","showCnt":"3000"}
                """
        }
        return """
            {"boxOfficeResult":{"boxofficeType":"일별 박스오피스","showRange":"\(day)~\(day)","dailyBoxOfficeList":[\(list.joined(separator: ","))]}}
            """
    }

    static func info(_ movie: Movie?) -> String {
        guard let movie else {
            return
                #"{"movieInfoResult":{"movieInfo":{"movieCd":"","movieNm":"","movieNmEn":"","movieNmOg":"","showTm":"","prdtYear":"","openDt":"","prdtStatNm":"","typeNm":"","nations":[],"genres":[],"directors":[],"actors":[],"showTypes":[],"companys":[],"audits":[],"staffs":[]},"source":"영화진흥위원회"}}"#
        }
        let people = { (names: [String]) in
            names.map { #"{"peopleNm":"\#($0)","peopleNmEn":""}"# }.joined(separator: ",")
        }
        let actors = movie.actors.map { #"{"peopleNm":"\#($0)","peopleNmEn":"","cast":"","castEn":""}"# }.joined(
            separator: ",")
        return """
            {"movieInfoResult":{"movieInfo":{"movieCd":"\(movie.code)","movieNm":"\(movie.title)","movieNmEn":"\(movie.english)",\
            "movieNmOg":"","showTm":"\(movie.runtime)","prdtYear":"\(movie.year)","openDt":"\(movie.open)","prdtStatNm":"개봉",\
            "typeNm":"장편","nations":[{"nationNm":"\(movie.nation)"}],"genres":[\(movie.genres.map { #"{"genreNm":"\#($0)"}"# }.joined(separator: ","))],\
            "directors":[\(people(movie.directors))],"actors":[\(actors)],"showTypes":[{"showTypeGroupNm":"2D","showTypeNm":"디지털"}],\
            "companys":[],"audits":[{"auditNo":"2012-MF01","watchGradeNm":"\(movie.grade)"},{"auditNo":"2012-MF02","watchGradeNm":"12세이상관람가"}],\
            "staffs":[]},"source":"영화진흥위원회"}}
            """
    }

    /// An examples poster: 300×430 (a thumbnail 100×143), as a poster the app shows.
    static func examplePoster(_ name: String) -> [UInt8] {
        name.hasPrefix("thumb/")
            ? SampleScenes.jpeg(name, width: 100, height: 143) : SampleScenes.jpeg(name, width: 300, height: 430)
    }

    /// The picture at `/img/<name>` in the goldens' world: a poster as the examples' are, or a
    /// web page for `sherlock-0` (a search result that is not a picture).
    package static func poster(_ name: String) -> (type: String, bytes: [UInt8]) {
        if name.hasPrefix("sherlock-0") { return ("text/html", Array("<html>moved</html>".utf8)) }
        return ("image/jpeg", examplePoster(name))
    }

    static func search(_ query: String, imageBase: String, world: World = .goldens) -> String {
        if world == .examples {
            // Every ranked movie's posters, under its code.
            let title = query.hasSuffix(" 포스터") ? String(query.dropLast(" 포스터".count)) : query
            guard let movie = movies(.examples).first(where: { $0.title == title }) else {
                return #"{"meta":{"total_count":0,"pageable_count":0,"is_end":true},"documents":[]}"#
            }
            let documents = (0..<3).map { n in
                """
                {"collection":"blog","thumbnail_url":"\(imageBase)/thumb/\(movie.code)-\(n).jpg","image_url":"\(imageBase)/\(movie.code)-\(n).jpg",\
                "width":300,"height":430,"display_sitename":"Daum\(n == 0 ? "영화" : "블로그")",\
                "doc_url":"https://movie.daum.net/\(movie.code)/\(n)","datetime":"2012-01-0\(n + 1)T10:00:00.000+09:00"}
                """
            }
            return """
                {"meta":{"total_count":3,"pageable_count":3,"is_end":true},"documents":[\(documents.joined(separator: ","))]}
                """
        }
        let slug: String
        switch query {
        case "마이 웨이 포스터": return #"{"meta":{"total_count":0,"pageable_count":0,"is_end":true},"documents":[]}"#
        case "광해, 왕이 된 남자 포스터": slug = "masquerade"
        case "미션임파서블:고스트프로토콜 포스터": slug = "ghost-protocol"
        case "셜록홈즈 : 그림자 게임 포스터": slug = "sherlock"
        default: slug = "poster"
        }
        var documents = (0..<3).map { n in
            """
            {"collection":"blog","thumbnail_url":"\(imageBase)/thumb/\(slug)-\(n).jpg","image_url":"\(imageBase)/\(slug)-\(n).jpg",\
            "width":\(500 + n * 10),"height":\(714 + n * 10),"display_sitename":"Daum\(n == 0 ? "영화" : "블로그")",\
            "doc_url":"https://movie.daum.net/\(slug)/\(n)","datetime":"2012-09-1\(n)T10:00:00.000+09:00"}
            """
        }
        documents.append(
            #"{"collection":"cafe","thumbnail_url":"","image_url":"not a url","width":0,"height":0,"display_sitename":"","doc_url":"","datetime":"2012-01-01T00:00:00.000+09:00"}"#
        )
        return """
            {"meta":{"total_count":4,"pageable_count":4,"is_end":true},"documents":[\(documents.joined(separator: ","))]}
            """
    }

    /// Answers like the APIs; poster URLs under `imageBase` (by default this server's `/img`).
    package static func handler(imageBase: String?, world: World = .goldens)
        -> @Sendable (LoopbackServer.Request, String) -> LoopbackServer.Action
    {
        { request, serverBase in
            let images = imageBase ?? serverBase + "/img"
            let path = request.path
            if path.hasPrefix("/img/"), world == .examples {
                let name = String(path.dropFirst(5))
                return .respond(
                    status: 200, headers: ["Content-Type": "image/jpeg", "ETag": "\"\(name)\""],
                    body: Data(examplePoster(name)))
            }
            if path.hasPrefix("/img/") {
                let picture = poster(String(path.dropFirst(5)))
                return .respond(status: 200, headers: ["Content-Type": picture.type], body: Data(picture.bytes))
            }
            if path.hasPrefix("/kakao/") {
                guard request.header("Authorization") == "KakaoAK \(kakaoKey)" else {
                    return .json(#"{"errorType":"AccessDeniedError","message":"cannot find appKey"}"#, status: 401)
                }
                guard path == "/kakao/v2/search/image" else { return .json("{}", status: 404) }
                return .json(search(request.query["query"] ?? "", imageBase: images, world: world))
            }
            guard path.hasPrefix("/kobis/") else { return .json("{}", status: 404) }
            guard request.query["key"] == kobisKey else {
                return .json(#"{"faultInfo":{"message":"유효하지않은 키값입니다.","errorCode":"320010"}}"#)
            }
            switch path {
            case "/kobis/boxoffice/searchDailyBoxOfficeList.json":
                guard let target = request.query["targetDt"], target.count == 8 else {
                    return .json(#"{"faultInfo":{"message":"필수 파라미터 targetDt가 없습니다.","errorCode":"320102"}}"#)
                }
                let day =
                    String(target.prefix(4)) + "-" + String(target.dropFirst(4).prefix(2)) + "-"
                    + String(target.suffix(2))
                if target == "20120101" { return .json(daily(target, newYear)) }
                if target == "20120102" { return .json(daily(target, newYear, corrupt: true)) }
                _ = day
                return .json(daily(target, otherDay))
            case "/kobis/movie/searchMovieInfo.json":
                return .json(info(movies(world).first { $0.code == request.query["movieCd"] }))
            default:
                return .json("{}", status: 404)
            }
        }
    }

    package static func server(imageBase: String? = nil, world: World = .goldens) throws -> LoopbackServer {
        let handler = handler(imageBase: imageBase, world: world)
        let base = UnsplashFixture.BaseBox()
        let server = try LoopbackServer { request in handler(request, base.value) }
        base.value = server.baseURL
        return server
    }

    package static func environment(_ server: LoopbackServer) -> [String: String] {
        [
            "CLOSET_KOBIS_URL": server.baseURL + "/kobis", "CLOSET_KAKAO_URL": server.baseURL + "/kakao",
            "KOBIS_API_KEY": kobisKey, "KAKAO_REST_API_KEY": kakaoKey, "CLOSET_HTTP_HELPER": HelperPath.path,
        ]
    }
}
