import Foundation

/// `searchDailyBoxOfficeList.json` (reference §2.2). Every value arrives as a string; the
/// two audience counts are parsed, and a count that is not a number is a decoding error.
public struct DailyBoxOffice: Decodable, Sendable, Equatable {
    public var boxOfficeResult: BoxOfficeResult
}

public struct BoxOfficeResult: Decodable, Sendable, Equatable {
    public var boxOfficeType: String
    public var showRange: String
    public var dailyBoxOfficeList: [DailyBoxOfficeMovie]

    enum CodingKeys: String, CodingKey {
        case boxOfficeType = "boxofficeType"
        case showRange, dailyBoxOfficeList
    }
}

public enum RankOldAndNew: String, Decodable, Sendable {
    case new = "NEW"
    case old = "OLD"
}

public struct DailyBoxOfficeMovie: Decodable, Hashable, Sendable {
    public var rankNumber: String
    public var rank: String
    public var rankDifference: String
    public var rankOldAndNew: RankOldAndNew
    public var movieCode: String
    public var movieName: String
    public var openDate: String
    public var salesAmount: String
    public var salesShare: String
    public var salesDifference: String
    public var salesChangeRatio: String
    public var salesAccumulate: String
    public var audienceCountOfDate: Int
    public var audienceDifferenceFromYesterday: String
    public var audienceChangeRatio: String
    public var accumulatedAudienceCount: Int
    public var screenCount: String
    public var showCount: String

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

    public init(from decoder: Decoder) throws {
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
