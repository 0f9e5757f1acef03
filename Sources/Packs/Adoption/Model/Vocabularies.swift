import ClosetCore

/// `kind=`: the API's `upkind` codes.
package enum AnimalKind: Int, Vocabulary, Codable {
    case dog, cat, other

    package static let vocabularyName = "kind"
    package static let info = makeInfo()
    static package let spelledOutInUsage = true

    package var englishName: String {
        switch self {
        case .dog: "dog"
        case .cat: "cat"
        case .other: "other"
        }
    }

    package var korean: String {
        switch self {
        case .dog: "개"
        case .cat: "고양이"
        case .other: "기타"
        }
    }

    /// `417000`, `422400`, `429900`.
    package var upkind: String {
        switch self {
        case .dog: "417000"
        case .cat: "422400"
        case .other: "429900"
        }
    }
}

/// `state=`: notice 공고중, protect 보호중.
enum ShelterState: Int, Vocabulary, Codable {
    case notice, protect

    package static let vocabularyName = "state"
    package static let info = makeInfo()
    static package let spelledOutInUsage = true

    package var englishName: String {
        switch self {
        case .notice: "notice"
        case .protect: "protect"
        }
    }

    package var korean: String {
        switch self {
        case .notice: "공고중"
        case .protect: "보호중"
        }
    }
}

/// `region=`: the 시도 (province) and its `upr_cd` code.
package enum Region: Int, Vocabulary, Codable {
    case seoul, busan, daegu, incheon, gwangju, daejeon, ulsan, sejong, gyeonggi, gangwon, chungbuk, chungnam,
        jeonbuk, jeonnam, gyeongbuk, gyeongnam, jeju

    package static let vocabularyName = "region"
    package static let info = makeInfo()

    package var englishName: String {
        switch self {
        case .seoul: "seoul"
        case .busan: "busan"
        case .daegu: "daegu"
        case .incheon: "incheon"
        case .gwangju: "gwangju"
        case .daejeon: "daejeon"
        case .ulsan: "ulsan"
        case .sejong: "sejong"
        case .gyeonggi: "gyeonggi"
        case .gangwon: "gangwon"
        case .chungbuk: "chungbuk"
        case .chungnam: "chungnam"
        case .jeonbuk: "jeonbuk"
        case .jeonnam: "jeonnam"
        case .gyeongbuk: "gyeongbuk"
        case .gyeongnam: "gyeongnam"
        case .jeju: "jeju"
        }
    }

    package var korean: String {
        switch self {
        case .seoul: "서울특별시"
        case .busan: "부산광역시"
        case .daegu: "대구광역시"
        case .incheon: "인천광역시"
        case .gwangju: "광주광역시"
        case .daejeon: "대전광역시"
        case .ulsan: "울산광역시"
        case .sejong: "세종특별자치시"
        case .gyeonggi: "경기도"
        case .gangwon: "강원특별자치도"
        case .chungbuk: "충청북도"
        case .chungnam: "충청남도"
        case .jeonbuk: "전북특별자치도"
        case .jeonnam: "전라남도"
        case .gyeongbuk: "경상북도"
        case .gyeongnam: "경상남도"
        case .jeju: "제주특별자치도"
        }
    }

    /// The short names people write: 서울, 부산, 경기, ...
    package var aliases: [String] {
        switch self {
        case .seoul: ["서울"]
        case .busan: ["부산"]
        case .daegu: ["대구"]
        case .incheon: ["인천"]
        case .gwangju: ["광주"]
        case .daejeon: ["대전"]
        case .ulsan: ["울산"]
        case .sejong: ["세종"]
        case .gyeonggi: ["경기"]
        case .gangwon: ["강원", "강원도"]
        case .chungbuk: ["충북"]
        case .chungnam: ["충남"]
        case .jeonbuk: ["전북", "전라북도"]
        case .jeonnam: ["전남"]
        case .gyeongbuk: ["경북"]
        case .gyeongnam: ["경남"]
        case .jeju: ["제주", "제주도"]
        }
    }

    /// The API's `upr_cd`.
    package var uprCode: String {
        switch self {
        case .seoul: "6110000"
        case .busan: "6260000"
        case .daegu: "6270000"
        case .incheon: "6280000"
        case .gwangju: "6290000"
        case .daejeon: "6300000"
        case .ulsan: "6310000"
        case .sejong: "5690000"
        case .gyeonggi: "6410000"
        case .gangwon: "6530000"
        case .chungbuk: "6430000"
        case .chungnam: "6440000"
        case .jeonbuk: "6540000"
        case .jeonnam: "6460000"
        case .gyeongbuk: "6470000"
        case .gyeongnam: "6480000"
        case .jeju: "6500000"
        }
    }
}
