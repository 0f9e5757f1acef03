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
            let viewModel = ItemDetailViewModel(id: id, repository: try state.market())
            let item: Item
            do {
                item = try viewModel.deleteItem(password: password)
            } catch MarketError.wrongPassword {
                // The app says why and asks again (a password asked at the terminal, once).
                guard
                    let again = invocation.askedAgain(
                        "password", because: "wrong password", korean: "비밀번호 오류: 올바른 비밀번호가 아닙니다")
                else { throw MarketError.wrongPassword }
                item = try viewModel.deleteItem(password: again)
            }
            invocation.notify(.localized("", korean: "삭제 되었습니다: 해당 아이템이 삭제 되었습니다"))
            return .removed(Market.product, .opaque(String(item.id)))
        })
}
