import ClosetCore
import ClosetLanguage
import Foundation

/// The embedded market's part of `.dump`: each product with its id, time and pictures, and
/// its password hash (`hash=`), never a password: the same passwords work after a replay.
enum MarketDump {
    static func write(_ market: EmbeddedMarket, into writer: inout DumpWriter) throws {
        let quote = DumpWriter.quote
        let products = market.products.rows.sorted { $0.id < $1.id }
        guard !products.isEmpty else { return }
        writer.line("# products keep their salted password hashes (hash=); no password is in this dump")
        for product in products {
            var line = "add product id=\(product.id) title=\(quote(product.title)) price=\(product.price)"
            line += " currency=\(product.currency.englishName) stock=\(product.stock)"
            if let discount = product.discountedPrice { line += " discounted=\(discount)" }
            if let text = product.descriptions { line += " description=\(quote(text))" }
            var paths: [String] = []
            for (index, picture) in product.pictures.enumerated() {
                let file = "product-\(product.id)-\(index + 1).\(picture.info.format == .png ? "png" : "jpg")"
                guard let bytes = market.picture(named: picture.name) else { continue }
                if let path = try writer.copyPicture(named: file, bytes: bytes) { paths.append(path) }
            }
            line += " image=\(quote(paths.isEmpty ? "<copy with .dump --images>" : paths.joined(separator: ",")))"
            line += " registered=\(Timestamp.format(product.registeredAt)) hash=\(quote(product.passwordHash.text))"
            if paths.isEmpty {
                writer.line("# product \(product.id): its pictures are not copied (use .dump --images <dir>)")
                line = "# " + line
            }
            writer.line(line)
        }
    }
}
