/// `searchMovieInfo.json` (reference §2.2).
package struct MovieDetails: Decodable, Sendable, Equatable {
    var movieInfoResult: MovieInfoResult
}

struct MovieInfoResult: Decodable, Sendable, Equatable {
    package var movieInfo: MovieInfo
    package var source: String
}

struct MovieInfo: Decodable, Sendable, Equatable {
    package var movieCode: String
    package var movieName: String
    var movieEnglishName: String
    var movieOriginalName: String
    package var runningTime: String
    package var productionYear: String
    package var openDate: String
    var productionStateName: String
    var typeName: String
    package var nations: [Nation]
    package var genres: [Genre]
    package var directors: [Director]
    package var actors: [Actor]
    package var showTypes: [ShowType]
    var companies: [Company]
    package var audits: [Audit]
    var staff: [Staff]

    enum CodingKeys: String, CodingKey {
        case movieCode = "movieCd"
        case movieName = "movieNm"
        case movieEnglishName = "movieNmEn"
        case movieOriginalName = "movieNmOg"
        case runningTime = "showTm"
        case productionYear = "prdtYear"
        case openDate = "openDt"
        case productionStateName = "prdtStatNm"
        case typeName = "typeNm"
        case nations, genres, directors, actors, showTypes, audits
        case companies = "companys"
        case staff = "staffs"
    }

    package struct Nation: Decodable, Sendable, Equatable {
        package var nationName: String
        enum CodingKeys: String, CodingKey { case nationName = "nationNm" }
    }

    package struct Genre: Decodable, Sendable, Equatable {
        package var genreName: String
        enum CodingKeys: String, CodingKey { case genreName = "genreNm" }
    }

    package struct Director: Decodable, Sendable, Equatable {
        package var personName: String
        var personEnglishName: String
        enum CodingKeys: String, CodingKey {
            case personName = "peopleNm"
            case personEnglishName = "peopleNmEn"
        }
    }

    package struct Actor: Decodable, Sendable, Equatable {
        package var personName: String
        var personEnglishName: String
        var castName: String
        var castEnglishName: String
        enum CodingKeys: String, CodingKey {
            case personName = "peopleNm"
            case personEnglishName = "peopleNmEn"
            case castName = "cast"
            case castEnglishName = "castEn"
        }
    }

    package struct ShowType: Decodable, Sendable, Equatable {
        var showTypeGroupName: String
        var showTypeName: String
        enum CodingKeys: String, CodingKey {
            case showTypeGroupName = "showTypeGroupNm"
            case showTypeName = "showTypeNm"
        }
    }

    package struct Company: Decodable, Sendable, Equatable {
        var companyCode: String
        var companyName: String
        var companyEnglishName: String
        var companyPartName: String
        enum CodingKeys: String, CodingKey {
            case companyCode = "companyCd"
            case companyName = "companyNm"
            case companyEnglishName = "companyNmEn"
            case companyPartName = "companyPartNm"
        }
    }

    package struct Audit: Decodable, Sendable, Equatable {
        var auditNumber: String
        package var watchGradeName: String
        enum CodingKeys: String, CodingKey {
            case auditNumber = "auditNo"
            case watchGradeName = "watchGradeNm"
        }
    }

    package struct Staff: Decodable, Sendable, Equatable {
        package var personName: String
        var personEnglishName: String
        var staffRoleName: String
        enum CodingKeys: String, CodingKey {
            case personName = "peopleNm"
            case personEnglishName = "peopleNmEn"
            case staffRoleName = "staffRoleNm"
        }
    }
}
