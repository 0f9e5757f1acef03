/// `searchMovieInfo.json` (reference §2.2).
public struct MovieDetails: Decodable, Sendable, Equatable {
    public var movieInfoResult: MovieInfoResult
}

public struct MovieInfoResult: Decodable, Sendable, Equatable {
    public var movieInfo: MovieInfo
    public var source: String
}

public struct MovieInfo: Decodable, Sendable, Equatable {
    public var movieCode: String
    public var movieName: String
    public var movieEnglishName: String
    public var movieOriginalName: String
    public var runningTime: String
    public var productionYear: String
    public var openDate: String
    public var productionStateName: String
    public var typeName: String
    public var nations: [Nation]
    public var genres: [Genre]
    public var directors: [Director]
    public var actors: [Actor]
    public var showTypes: [ShowType]
    public var companies: [Company]
    public var audits: [Audit]
    public var staff: [Staff]

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

    public struct Nation: Decodable, Sendable, Equatable {
        public var nationName: String
        enum CodingKeys: String, CodingKey { case nationName = "nationNm" }
    }

    public struct Genre: Decodable, Sendable, Equatable {
        public var genreName: String
        enum CodingKeys: String, CodingKey { case genreName = "genreNm" }
    }

    public struct Director: Decodable, Sendable, Equatable {
        public var personName: String
        public var personEnglishName: String
        enum CodingKeys: String, CodingKey {
            case personName = "peopleNm"
            case personEnglishName = "peopleNmEn"
        }
    }

    public struct Actor: Decodable, Sendable, Equatable {
        public var personName: String
        public var personEnglishName: String
        public var castName: String
        public var castEnglishName: String
        enum CodingKeys: String, CodingKey {
            case personName = "peopleNm"
            case personEnglishName = "peopleNmEn"
            case castName = "cast"
            case castEnglishName = "castEn"
        }
    }

    public struct ShowType: Decodable, Sendable, Equatable {
        public var showTypeGroupName: String
        public var showTypeName: String
        enum CodingKeys: String, CodingKey {
            case showTypeGroupName = "showTypeGroupNm"
            case showTypeName = "showTypeNm"
        }
    }

    public struct Company: Decodable, Sendable, Equatable {
        public var companyCode: String
        public var companyName: String
        public var companyEnglishName: String
        public var companyPartName: String
        enum CodingKeys: String, CodingKey {
            case companyCode = "companyCd"
            case companyName = "companyNm"
            case companyEnglishName = "companyNmEn"
            case companyPartName = "companyPartNm"
        }
    }

    public struct Audit: Decodable, Sendable, Equatable {
        public var auditNumber: String
        public var watchGradeName: String
        enum CodingKeys: String, CodingKey {
            case auditNumber = "auditNo"
            case watchGradeName = "watchGradeNm"
        }
    }

    public struct Staff: Decodable, Sendable, Equatable {
        public var personName: String
        public var personEnglishName: String
        public var staffRoleName: String
        enum CodingKeys: String, CodingKey {
            case personName = "peopleNm"
            case personEnglishName = "peopleNmEn"
            case staffRoleName = "staffRoleNm"
        }
    }
}
