import ClosetCore
import ClosetLanguage
import Foundation

/// `edit product <ref> password=<p> ...`: the edit screen ("수정"); the registrant's
/// password is checked before anything changes.
enum EditProduct {
    static let spec = CommandSpec(
        path: ["edit", "product"],
        summary: "change a product (the registrant's password is required)",
        parameters: [Market.productParameter],
        keys: [Market.password] + MarketRecords.product.keys(.edit),
        examples: ["edit product 3 password=1234 stock=0", "edit product @1 password=1234 discounted=none"],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let id = try state.id(invocation.referenceParameter(), at: invocation.parameters.first?.range)
            let password = try ProductForm.password(invocation)
            var form = ItemForm()
            form.title = invocation.text("title")
            form.price = invocation.count("price")
            form.currency = invocation.value(Currency.self, "currency")
            form.stock = invocation.count("stock")
            form.descriptions = invocation.text("description")
            if let text = invocation.text("discounted") {
                if text.lowercased() == "none" {
                    form.discountedPrice = .some(nil)
                } else if let discount = WholeNumber.value(text) {
                    form.discountedPrice = discount
                } else {
                    throw Diagnostic.badDiscount(text, at: invocation.argument("discounted")?.range)
                }
            }
            // A title or description given empty (or the placeholder) is missing, as on add.
            if form.title?.isEmpty == true { throw invocation.missing("title") }
            if let text = form.descriptions, text.isEmpty || text == ItemEditViewModel.descriptionPlaceholder {
                throw invocation.missing("description")
            }
            form.images = try ProductForm.pictures(invocation)
            if form.images?.isEmpty == true {
                throw invocation.missing("image")
            }
            guard invocation.arguments.contains(where: { $0.key != "password" }) else {
                throw Diagnostic.nothingToEdit(at: invocation.call.range)
            }
            let current = try state.market().item(id: id)
            let price = form.price ?? current.price
            if let discount = form.discountedPrice.map({ $0 }) ?? current.discountedPrice, discount >= price {
                throw Diagnostic.discountNotBelowPrice(
                    discount, price: price,
                    at: invocation.argument("discounted")?.range ?? invocation.argument("price")?.range)
            }
            let item = try state.market().update(id: id, form, password: password)
            invocation.notify(.localized("", korean: "수정 완료: 아이템 수정에 성공하였습니다"))
            return Market.outcome(item)
        })
}
