/// The register and edit screen's check (reference §3.4 `ItemEditViewModel.validate`): a
/// discount must be lower than the price; title, stock, currency, price, a description
/// other than the placeholder, and at least one image are required.
public final class ItemEditViewModel {
    public enum State: Equatable {
        case empty, satisfied, dissatisfied
    }

    public static let currencies = ["KRW", "JPY", "USD", "EUR", "CNY", "BTC"].sorted()
    public static let descriptionPlaceholder = "제품 설명을 입력하세요"
    public static let dissatisfiedTitle = "필수 요소 작성 불만족"
    public static let dissatisfiedMessage = "할인 가격을 제외한 모든 요소를 채워야 하며,\n할인 가격은 제품 가격에 비해 낮아야 합니다"

    public private(set) var state = State.empty
    public private(set) var imageCount = 0
    public private(set) var discountedPrice: Int?
    public private(set) var title: String?
    public private(set) var stock: Int?
    public private(set) var currency: String?
    public private(set) var price: Int?
    public private(set) var descriptions: String?

    public init() {}

    /// `addImage`: at most five (the app's VC refused a sixth).
    public func addImage() -> Bool {
        guard imageCount < MarketError.maximumImageCount else { return false }
        imageCount += 1
        return true
    }

    public func validate(
        titleText: String?, stockText: String?, currencyText: String?, priceText: String?,
        discountedPriceText: String?, descriptionsText: String?
    ) -> State {
        if let discount = discountedPriceText.flatMap(Int.init), let price = priceText.flatMap(Int.init) {
            guard discount < price else {
                state = .dissatisfied
                return state
            }
            discountedPrice = discount
        }
        guard imageCount > 0, let titleText, let stockText, let currencyText, let priceText, let descriptionsText,
            descriptionsText != Self.descriptionPlaceholder
        else {
            state = .dissatisfied
            return state
        }
        title = titleText
        stock = Int(stockText)
        currency = currencyText
        price = Int(priceText)
        descriptions = descriptionsText
        state = .satisfied
        return state
    }
}
