import ClosetCore

/// The app's `WeatherType`, shown to users as "season".
package enum WeatherType: Int, Vocabulary, Codable {
    case allWeather, spring, summer, fall, winter

    package static let vocabularyName = "season"
    package static let info = makeInfo()

    package var englishName: String {
        switch self {
        case .allWeather: "all"
        case .spring: "spring"
        case .summer: "summer"
        case .fall: "fall"
        case .winter: "winter"
        }
    }

    package var korean: String {
        switch self {
        case .allWeather: "사계절"
        case .spring: "봄"
        case .summer: "여름"
        case .fall: "가을"
        case .winter: "겨울"
        }
    }

    package var aliases: [String] {
        switch self {
        case .allWeather: ["allWeather"]
        case .fall: ["autumn"]
        case .spring, .summer, .winter: []
        }
    }
}
