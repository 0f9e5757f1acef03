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
        keys: [Market.password] + MarketRecords.product.keys(.edit) + [
            KeySpec("add-image", .path(allowsNone: false), "add one picture after the others (the picker: at most 5)"),
            KeySpec("remove-image", .count, "take out the N-th picture (N번째 사진; one must stay)"),
        ],
        notes: ["image= replaces the whole set; add-image= and remove-image= change one picture, as the app's picker."],
        examples: [
            "edit product 3 password=1234 stock=0", "edit product @1 password=1234 discounted=none",
            "edit product 3 password=1234 add-image=side.jpg remove-image=1",
        ],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let id = try state.id(invocation.referenceParameter(), at: invocation.parameters.first?.range)
            let password = try ProductForm.password(invocation)
            var form = try ProductForm.given(invocation)
            guard invocation.arguments.contains(where: { $0.key != "password" }) else {
                throw invocation.nothingToChange(besides: ["password"])
            }
            let current = try state.market().item(id: id)
            if invocation.argument("add-image") != nil || invocation.argument("remove-image") != nil {
                // The edit screen loads the pictures it has, in order, before the picker changes them.
                let urls = MarketRecords.images(of: current)
                form.images = try ProductForm.picked(
                    invocation, current: urls.indices.map { state.picture($0, ofProduct: id, urls: urls) })
            }
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
