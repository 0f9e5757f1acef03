import Foundation

/// A small open-market server (the 2021 API of reference §3.1) for tests: items in memory,
/// ids 1, 2, 3… never reused, registration times from 2024-01-01T00:00:00Z one second apart
/// (as a `--deterministic` session's clock), multipart POST and PATCH with `images[]`, DELETE
/// with a JSON password, 404 for an unknown id or a wrong password.
package final class OpenMarketFixture: @unchecked Sendable {
    struct Stored {
        var id: Int
        var title: String
        var descriptions: String?
        var price: Int
        var currency: String
        var stock: Int
        var discountedPrice: Int?
        var images: Int
        var password: String
        var registered: Double
    }

    private let lock = NSLock()
    private var items: [Int: Stored] = [:]
    private var lastID = 0
    private var created = 0
    package private(set) var server: LoopbackServer!

    package init() throws {
        server = try LoopbackServer { [unowned self] request in self.handle(request) }
    }

    package var baseURL: String { server.baseURL }

    package func stop() { server.stop() }

    func json(_ item: Stored, detail: Bool) -> String {
        let base = server.baseURL
        let thumbnails = (1...max(1, item.images)).prefix(item.images).map {
            "\"\(base)/thumbnails/\(item.id)-\($0).png\""
        }
        var fields = [
            "\"id\":\(item.id)", "\"title\":\(Self.quote(item.title))", "\"price\":\(item.price)",
            "\"currency\":\(Self.quote(item.currency))", "\"stock\":\(item.stock)",
        ]
        if let discount = item.discountedPrice { fields.append("\"discounted_price\":\(discount)") }
        fields.append("\"thumbnails\":[\(thumbnails.joined(separator: ","))]")
        if detail {
            if let text = item.descriptions { fields.append("\"descriptions\":\(Self.quote(text))") }
            let images = thumbnails.map { $0.replacingOccurrences(of: "/thumbnails/", with: "/images/") }
            fields.append("\"images\":[\(images.joined(separator: ","))]")
        }
        fields.append("\"registration_date\":\(item.registered)")
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func quote(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    static func error(_ reason: String, _ status: Int) -> LoopbackServer.Action {
        .json(#"{"error":true,"reason":\#(quote(reason))}"#, status: status)
    }

    func handle(_ request: LoopbackServer.Request) -> LoopbackServer.Action {
        lock.lock()
        defer { lock.unlock() }
        let parts = request.path.split(separator: "/").map(String.init)
        switch (request.method, parts.first, parts.count) {
        case ("GET", "items", 2):
            let page = Int(parts[1]) ?? 1
            let sorted = items.values.sorted { $0.id > $1.id }
            let start = (page - 1) * 20
            let slice = start >= 0 && start < sorted.count ? Array(sorted[start..<min(sorted.count, start + 20)]) : []
            return .json(
                #"{"page":\#(page),"items":[\#(slice.map { json($0, detail: false) }.joined(separator: ","))]}"#)
        case ("GET", "item", 2):
            guard let id = Int(parts[1]), let item = items[id] else { return Self.error("no such item", 404) }
            return .json(json(item, detail: true))
        case ("POST", "item", 1):
            let form = Self.multipart(request)
            guard form.images <= 5 else { return Self.error("The number of images must be 5 or less", 400) }
            guard let title = form.fields["title"], let price = form.fields["price"].flatMap(Int.init),
                let currency = form.fields["currency"], let stock = form.fields["stock"].flatMap(Int.init),
                let password = form.fields["password"], form.images > 0
            else { return Self.error("a required part is missing", 400) }
            lastID += 1
            let item = Stored(
                id: lastID, title: title, descriptions: form.fields["descriptions"], price: price, currency: currency,
                stock: stock, discountedPrice: form.fields["discounted_price"].flatMap(Int.init), images: form.images,
                password: password, registered: 1_704_067_200 + Double(created))
            created += 1
            items[item.id] = item
            return .json(json(item, detail: true))
        case ("PATCH", "item", 2):
            let form = Self.multipart(request)
            guard let id = Int(parts[1]), var item = items[id], form.fields["password"] == item.password else {
                return Self.error("no such item or wrong password", 404)
            }
            if let title = form.fields["title"] { item.title = title }
            if let text = form.fields["descriptions"] { item.descriptions = text }
            if let price = form.fields["price"].flatMap(Int.init) { item.price = price }
            if let currency = form.fields["currency"] { item.currency = currency }
            if let stock = form.fields["stock"].flatMap(Int.init) { item.stock = stock }
            if let discount = form.fields["discounted_price"].flatMap(Int.init) { item.discountedPrice = discount }
            if form.images > 0 { item.images = form.images }
            items[id] = item
            return .json(json(item, detail: true))
        case ("DELETE", "item", 2):
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: String]
            guard request.header("Content-Type") == "application/json", let id = Int(parts[1]), let item = items[id],
                body?["password"] == item.password
            else { return Self.error("no such item or wrong password", 404) }
            items[id] = nil
            return .json(json(item, detail: true))
        default:
            return Self.error("not found", 404)
        }
    }

    /// Text fields and the number of `images[]` files of a multipart body.
    package static func multipart(_ request: LoopbackServer.Request) -> (fields: [String: String], images: Int) {
        guard let type = request.header("Content-Type"), let range = type.range(of: "boundary=") else {
            return ([:], 0)
        }
        let boundary = Array(("--" + type[range.upperBound...]).utf8)
        let body = [UInt8](request.body)
        var fields: [String: String] = [:]
        var images = 0
        var starts: [Int] = []
        var index = 0
        while index + boundary.count <= body.count {
            if Array(body[index..<index + boundary.count]) == boundary {
                starts.append(index)
                index += boundary.count
            } else {
                index += 1
            }
        }
        for (start, end) in zip(starts, starts.dropFirst()) {
            let part = Array(body[(start + boundary.count + 2)..<(end - 2)])
            guard let split = (0..<max(0, part.count - 3)).first(where: { part[$0..<$0 + 4] == [13, 10, 13, 10] })
            else { continue }
            let head = String(decoding: part[..<split], as: UTF8.self)
            let content = Array(part[(split + 4)...])
            guard let nameRange = head.range(of: "name=\""),
                let close = head[nameRange.upperBound...].firstIndex(of: "\"")
            else { continue }
            let name = String(head[nameRange.upperBound..<close])
            if name == "images[]" { images += 1 } else { fields[name] = String(decoding: content, as: UTF8.self) }
        }
        return (fields, images)
    }
}
