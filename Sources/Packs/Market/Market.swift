import ClosetCore
import ClosetLanguage
import ClosetServing
import ClosetTables

/// The open market (reference §3) as a pack: products in pages of 20, the detail screen,
/// register and edit with up to five images, delete with the registrant's password.
/// Embedded in the store by default.
public enum Market {
    public static let pack = Pack(
        name: "market",
        summary: "the open market: products in pages of 20, with pictures and the registrant's password (상품)",
        vocabularies: [Currency.info],
        entityKinds: [product],
        tables: [AnyTableSchema(ProductTable.schema), AnyTableSchema(ProductSequenceTable.schema)],
        commands: [
            ListProducts.spec, CountProducts.spec, ShowProduct.spec, AddProduct.spec, EditProduct.spec,
            RemoveProduct.spec, ExportProducts.spec, ImportProducts.spec,
        ],
        makeState: { try MarketState($0) })

    /// The app's APIs `closet serve` answers from the store (or from recordings).
    public static let served: [ServedAPI] = [OpenMarketService.api]

    package static let product = MarketRecords.productKind

    static let productParameter = ParameterSpec(
        "ref", .reference(product, many: false, allowsNone: false, constraint: nil),
        "a product: its id, @N of list products, or $variable")

    static let password: KeySpec = {
        var key = KeySpec(
            "password", .text, "the registrant's password (등록자 인증을 위한 비밀번호)", required: true,
            whenMissing: "등록자 인증을 위한 비밀번호가 필요합니다", secret: true)
        // The delete screen's prompt: its title and message, then the field's placeholder.
        key.koreanPrompt = "비밀번호 입력: 등록자 인증을 위한 비밀번호가 필요합니다\n비밀번호"
        return key
    }()

    static func outcome(_ item: Item) -> Outcome {
        .entity(product, .opaque(String(item.id))) { MarketRecords.record(item) }
    }
}
