import ClosetCore

/// The market's currencies (`ItemEditViewModel.currencies`, sorted as the app sorts them).
package enum Currency: Int, Vocabulary, Codable {
    case btc, cny, eur, jpy, krw, usd

    package static let vocabularyName = "currency"
    package static let info = makeInfo()

    package var englishName: String {
        switch self {
        case .btc: "BTC"
        case .cny: "CNY"
        case .eur: "EUR"
        case .jpy: "JPY"
        case .krw: "KRW"
        case .usd: "USD"
        }
    }

    package var korean: String {
        switch self {
        case .btc: "비트코인"
        case .cny: "위안"
        case .eur: "유로"
        case .jpy: "엔"
        case .krw: "원"
        case .usd: "달러"
        }
    }
}
