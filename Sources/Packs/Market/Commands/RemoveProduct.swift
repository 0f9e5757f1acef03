import ClosetCore
import ClosetLanguage

/// `remove product <ref> password=<p>`: the detail screen's delete ("삭제").
enum RemoveProduct {
    static let spec = CommandSpec(
        path: ["remove", "product"],
        summary: "delete a product (the registrant's password is required)",
        parameters: [Market.productParameter],
        keys: [Market.password],
        examples: ["remove product 3 password=1234"],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let id = try state.id(invocation.referenceParameter(), at: invocation.parameters.first?.range)
            let password = try ProductForm.password(invocation)
            let item = try ItemDetailViewModel(id: id, repository: state.market()).deleteItem(password: password)
            return .removed(Market.product, .opaque(String(item.id)))
        })
}
