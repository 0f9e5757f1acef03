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
            var paths: [String] = []
            for (index, picture) in product.pictures.enumerated() {
                let file = "product-\(product.id)-\(index + 1).\(picture.info.format == .png ? "png" : "jpg")"
                let copied = try writer.copyCheckedPicture(
                    named: file, blobName: picture.name, of: "product \(product.id)"
                ) { market.picture(named: picture.name) }
                if let copied { paths.append(copied) }
            }
            let image = paths.isEmpty ? "<copy with .dump --images>" : paths.joined(separator: ",")
            var line = DumpWriter.statement(
                "add product", MarketRecords.product, product.item,
                supplied: ["image": quote(image), "hash": quote(product.passwordHash.text)])
            if paths.isEmpty {
                writer.line(
                    writer.copiesPictures
                        ? "# product \(product.id): not restored without a picture (each left out above)"
                        : "# product \(product.id): its pictures are not copied (use .dump --images <dir>)")
                line = "# " + line
            }
            writer.line(line)
        }
    }
}
