import ClosetCore
import ClosetLanguage

/// The register and edit screen (reference §3.4 `ItemEditViewModel`): pictures added and
/// removed, the form checked (`validate`: a discount lower than the price; title, stock,
/// currency, price, a description other than the placeholder and at least one picture), then
/// registered or updated through the market, and an existing product loaded for editing.
package final class ItemEditViewModel {
    package enum State: Equatable {
        case empty, loading, satisfied, dissatisfied
        case initial(Item)
        /// A picture was added; its cell (item 0 is the "add photo" cell).
        case addPhoto(Int)
        case deletePhoto(Int)
        case register(Item)
        case update(Item)
        case error(ItemEditError)
    }

    /// The screen's errors (the app's `ItemEditViewModelError`), with the app's texts:
    /// `Item Edit UseCase Networking Error - Response StatusCode 500`,
    /// `Image Load UseCase Can't convert Data to Image error`.
    package enum ItemEditError: Error, Equatable {
        case editUseCaseError(String)
        case imageUseCaseError(String)

        package var message: String {
            switch self {
            case .editUseCaseError(let message), .imageUseCaseError(let message): message
            }
        }

        static func edit(_ error: Error) -> ItemEditError {
            .editUseCaseError(OpenMarketUseCase.itemEdit.screenMessage(error))
        }

        static func image(_ error: ImageNetworkUseCaseError) -> ItemEditError {
            .imageUseCaseError("Image Load UseCase \(error.message)")
        }
    }

    package static let currencies = ["KRW", "JPY", "USD", "EUR", "CNY", "BTC"].sorted()
    package static let descriptionPlaceholder = "제품 설명을 입력하세요"
    static let dissatisfiedTitle = "필수 요소 작성 불만족"
    static let dissatisfiedMessage = "할인 가격을 제외한 모든 요소를 채워야 하며,\n할인 가격은 제품 가격에 비해 낮아야 합니다"

    package private(set) var state = State.empty
    package private(set) var images: [(bytes: [UInt8], info: ImageInfo)] = []
    package var imageCount: Int { images.count }
    package private(set) var discountedPrice: Int?
    package private(set) var title: String?
    package private(set) var stock: Int?
    package private(set) var currency: String?
    package private(set) var price: Int?
    package private(set) var descriptions: String?

    private let id: Int?
    private let market: MarketRepository?
    /// Where a remote product's pictures are fetched from, to fill the form (`loadItem`).
    private let imageUseCase: ImageNetworkUseCase?

    /// `id` edits that product; `market` is where it is loaded from and registered to.
    package convenience init(id: Int? = nil, market: MarketRepository? = nil) {
        self.init(id: id, market: market, images: nil)
    }

    init(id: Int?, market: MarketRepository?, images: ImageNetworkUseCase?) {
        self.id = id
        self.market = market
        imageUseCase = images
    }

    /// `addImage`: at most five (the app's screen refused a sixth); the new picture's cell.
    @discardableResult
    package func addImage(_ image: (bytes: [UInt8], info: ImageInfo)) -> Bool {
        guard images.count < MarketError.maximumImageCount else { return false }
        images.append(image)
        state = .addPhoto(images.count)
        return true
    }

    /// `deleteImage`: cell `item` (item 0 is the "add photo" cell, so picture `item - 1`).
    package func deleteImage(at item: Int) {
        guard item >= 1, item <= images.count else { return }
        images.remove(at: item - 1)
        state = .deletePhoto(item)
    }

    package func validate(
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
        guard !images.isEmpty, let titleText, let stockText, let currencyText, let priceText, let descriptionsText,
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

    /// `loadItem` (edit mode): the product, to fill the form, and (from a server) its
    /// pictures, in order, before `.initial`.
    package func loadItem() {
        guard let id, let market else { return }
        state = .loading
        let item: Item
        do {
            item = try market.item(id: id)
        } catch {
            state = .error(.edit(error))
            return
        }
        if let imageUseCase {
            var loaded: [(bytes: [UInt8], info: ImageInfo)] = []
            for url in item.images ?? [] {
                do {
                    loaded.append(try imageUseCase.retrieveImage(with: url))
                } catch {
                    state = .error(.image(error))
                    return
                }
            }
            images = loaded
        }
        state = .initial(item)
    }

    /// `registerItem`: the checked form, registered with the password.
    package func registerItem(password: String) {
        guard let market, let form = checkedForm() else { return }
        state = .loading
        do {
            state = .register(try market.create(form, password: password))
        } catch {
            state = .error(.edit(error))
        }
    }

    /// `updateItem`: the checked form over the product being edited.
    package func updateItem(password: String) {
        guard let id, let market, let form = checkedForm() else { return }
        state = .loading
        do {
            state = .update(try market.update(id: id, form, password: password))
        } catch {
            state = .error(.edit(error))
        }
    }

    /// What `validate` stored, as the market takes it; nil until it was satisfied.
    private func checkedForm() -> ItemForm? {
        guard state == .satisfied, let currency = currency.flatMap(Currency.named) else { return nil }
        var form = ItemForm(images: images)
        form.fields["title"] = title.map(FieldValue.text)
        form.fields["price"] = price.map(FieldValue.integer)
        form.fields["currency"] = .text(currency.englishName)
        form.fields["stock"] = stock.map(FieldValue.integer)
        form.fields["description"] = descriptions.map(FieldValue.text)
        form.fields["discounted"] = discountedPrice.map(FieldValue.integer)
        return form
    }
}
