import ClosetCore
import ClosetCrypto
import ClosetLanguage
import Foundation

/// `add product ...`: the register screen ("등록"). `id=`, `registered=` and `hash=`
/// restore a product exactly as `.dump` wrote it (its password hash, never a password).
enum AddProduct {
    static let spec = CommandSpec(
        path: ["add", "product"],
        summary: "register a product with one to five pictures and a password",
        keys: MarketRecords.product.keys(
            .add, whenMissing: "\(ItemEditViewModel.dissatisfiedTitle): 할인 가격을 제외한 모든 요소를 채워야 합니다")
            // Not required: `hash=` restores a product without it.
            + [Market.password.required(false)] + MarketRecords.product.keys(.restoring) + [
                KeySpec(
                    "hash", .text, "restore with this password hash instead of a password (what .dump writes)",
                    restores: true)
            ],
        notes: [
            "The password is kept only as a salted hash; it is masked in the echo, errors and history.",
            "password=? asks for it at the terminal with echo off.",
        ],
        examples: [
            "add product title=\"Mac mini\" price=890000 currency=KRW stock=90 discounted=89000 description=\"M1\" image=mini.png password=1234"
        ],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let form = try ProductForm.new(invocation)
            if let hashText = invocation.text("hash") {
                guard let hash = PasswordHash(text: hashText) else {
                    throw Diagnostic.badPasswordHash(at: invocation.argument("hash")?.range)
                }
                if invocation.count("id") == 0 {
                    throw Diagnostic.idStartsAtOne("id", at: invocation.argument("id")?.range)
                }
                guard let id = invocation.count("id") ?? state.embedded.nextID else {
                    throw Diagnostic.noIDLeft("product", at: invocation.call.range)
                }
                var product = StoredProduct(
                    id: id, passwordHash: hash, registeredAt: invocation.date("registered") ?? invocation.clock.now())
                product.apply(form)
                if state.embedded.products[product.id] != nil {
                    throw Diagnostic.productExists(product.id, at: invocation.argument("id")?.range)
                }
                return Market.outcome(try state.embedded.restore(product, images: form.images ?? []))
            }
            let item = try state.market().create(form, password: try ProductForm.password(invocation))
            invocation.notify(.localized("", korean: "등록 완료: 아이템 등록에 성공하였습니다"))
            // The app shows the product's detail screen once it is registered.
            return ShowProduct.detail(item)
        })
}
