import Foundation

/// `searchDailyBoxOfficeList.json` (reference §2.2). Every value arrives as a string; the
/// two audience counts are parsed, and a count that is not a number is a decoding error.
package struct DailyBoxOffice: Decodable, Sendable, Equatable {
    var boxOfficeResult: BoxOfficeResult
}

struct BoxOfficeResult: Decodable, Sendable, Equatable {
    package var boxOfficeType: String
    package var showRange: String
    package var dailyBoxOfficeList: [DailyBoxOfficeMovie]

    enum CodingKeys: String, CodingKey {
        case boxOfficeType = "boxofficeType"
        case showRange, dailyBoxOfficeList
    }
}

enum RankOldAndNew: String, Decodable, Sendable {
    case new = "NEW"
    case old = "OLD"
}

struct DailyBoxOfficeMovie: Decodable, Hashable, Sendable {
    var rankNumber: String
    package var rank: String
    package var rankDifference: String
    package var rankOldAndNew: RankOldAndNew
    package var movieCode: String
    package var movieName: String
    package var openDate: String
    var salesAmount: String
    package var salesShare: String
    var salesDifference: String
    var salesChangeRatio: String
    var salesAccumulate: String
    package var audienceCountOfDate: Int
    var audienceDifferenceFromYesterday: String
    var audienceChangeRatio: String
    package var accumulatedAudienceCount: Int
    var screenCount: String
    var showCount: String

    enum CodingKeys: String, CodingKey {
        case rankNumber = "rnum"
        case rank
        case rankDifference = "rankInten"
        case rankOldAndNew
        case movieCode = "movieCd"
        case movieName = "movieNm"
        case openDate = "openDt"
        case salesAmount = "salesAmt"
        case salesShare
        case salesDifference = "salesInten"
        case salesChangeRatio = "salesChange"
        case salesAccumulate = "salesAcc"
        case audienceCountOfDate = "audiCnt"
        case audienceDifferenceFromYesterday = "audiInten"
        case audienceChangeRatio = "audiChange"
        case accumulatedAudienceCount = "audiAcc"
        case screenCount = "scrnCnt"
        case showCount = "showCnt"
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try container.decode(String.self, forKey: key) }
        func number(_ key: CodingKeys) throws -> Int {
            let value = try text(key)
            guard let number = Int(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "'\(value)' is not a number")
            }
            return number
        }
        rankNumber = try text(.rankNumber)
        rank = try text(.rank)
        rankDifference = try text(.rankDifference)
        rankOldAndNew = try container.decode(RankOldAndNew.self, forKey: .rankOldAndNew)
        movieCode = try text(.movieCode)
        movieName = try text(.movieName)
        openDate = try text(.openDate)
        salesAmount = try text(.salesAmount)
        salesShare = try text(.salesShare)
        salesDifference = try text(.salesDifference)
        salesChangeRatio = try text(.salesChangeRatio)
        salesAccumulate = try text(.salesAccumulate)
        audienceCountOfDate = try number(.audienceCountOfDate)
        audienceDifferenceFromYesterday = try text(.audienceDifferenceFromYesterday)
        audienceChangeRatio = try text(.audienceChangeRatio)
        accumulatedAudienceCount = try number(.accumulatedAudienceCount)
        screenCount = try text(.screenCount)
        showCount = try text(.showCount)
    }
}
