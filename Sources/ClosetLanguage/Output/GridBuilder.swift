import ClosetDomain
import Foundation

/// Turns an outcome into rows for table, csv and line output. Tables are for reading, so they
/// show short ids and a style's clothes by description; csv and line are for tools, so they
/// carry the same fields as JSON, full ids included.
enum GridBuilder {
    /// The length of ids in tables: long enough to be unique in any real wardrobe, and a
    /// valid prefix reference.
    static let shortIDLength = 8

    static func grid(for outcome: Outcome, format: OutputFormat) -> Grid? {
        let forPeople = format == .table
        switch outcome {
        case .clothes(let clothes):
            return clothesGrid([clothes], forPeople: forPeople, listing: false)
        case .clothesList(let list):
            return clothesGrid(list, forPeople: forPeople, listing: true)
        case .style(let style):
            return styleGrid([style], forPeople: forPeople, listing: false)
        case .styles(let styles):
            return styleGrid(styles, forPeople: forPeople, listing: true)
        case .count(let count):
            return Grid(columns: ["count"], rows: [[String(count)]], numericColumns: [0])
        case .removed(let id):
            return Grid(columns: ["removed"], rows: [[id.uuidString]])
        case .transferred(let transfer):
            return Grid(columns: transfer.fields.map(\.0), rows: [transfer.fields.map(\.1)], numericColumns: [0])
        case .cacheStats(let stats):
            return Grid(
                columns: stats.fields.map(\.0), rows: [stats.fields.map { String($0.1) }],
                numericColumns: Set(stats.fields.indices))
        case .table(let grid):
            return grid
        case .text, .nothing:
            return nil
        }
    }

    static func shortID(_ id: UUID) -> String { String(id.uuidString.prefix(shortIDLength)) }

    static func imageText(_ image: ImageInfo?) -> String {
        guard let image else { return "" }
        return "\(image.format.rawValue) \(image.width)x\(image.height) \(image.bytes)B"
    }

    private static func clothesGrid(_ list: [Clothes], forPeople: Bool, listing: Bool) -> Grid {
        if forPeople {
            let rows = list.enumerated().map { index, clothes in
                (listing ? [String(index + 1)] : [])
                    + [shortID(clothes.id), clothes.category.englishName, clothes.weatherType.englishName,
                       clothes.descriptions, Timestamp.format(clothes.createdAt), imageText(clothes.image)]
            }
            let columns = (listing ? ["#"] : []) + ["id", "category", "season", "description", "created", "image"]
            return dropEmptyImageColumn(Grid(columns: columns, rows: rows, numericColumns: listing ? [0] : [], isListing: listing))
        }
        let rows = list.map { clothes in
            [clothes.id.uuidString, Timestamp.format(clothes.createdAt), clothes.category.englishName,
             clothes.weatherType.englishName, clothes.descriptions, imageText(clothes.image)]
        }
        return Grid(columns: ["id", "createdAt", "category", "season", "description", "image"], rows: rows, isListing: listing)
    }

    /// A table column of images that are all absent says nothing; leave it out.
    private static func dropEmptyImageColumn(_ grid: Grid) -> Grid {
        guard let last = grid.columns.indices.last, grid.columns[last] == "image",
            grid.rows.allSatisfy({ $0[last].isEmpty })
        else { return grid }
        var copy = grid
        copy.columns.removeLast()
        copy.rows = grid.rows.map { Array($0.dropLast()) }
        return copy
    }

    private static func styleGrid(_ styles: [Style], forPeople: Bool, listing: Bool) -> Grid {
        if forPeople {
            let rows = styles.enumerated().map { index, style in
                (listing ? [String(index + 1)] : [])
                    + [shortID(style.id), style.name ?? "", style.weather.englishName,
                       style.orderedClothes.map { "\($0.category.englishName): \(label(of: $0))" }.joined(separator: ", "),
                       Timestamp.format(style.createdAt)]
            }
            let columns = (listing ? ["#"] : []) + ["id", "name", "season", "clothes", "created"]
            return Grid(columns: columns, rows: rows, numericColumns: listing ? [0] : [], isListing: listing)
        }
        let rows = styles.map { style in
            [style.id.uuidString, Timestamp.format(style.createdAt), style.name ?? "", style.weather.englishName]
                + ClothesCategory.allCases.map { style.clothes[$0]?.id.uuidString ?? "" }
        }
        return Grid(
            columns: ["id", "createdAt", "name", "season"] + ClothesCategory.allCases.map(\.englishName),
            rows: rows, isListing: listing)
    }

    /// How a table names a clothes inside a style: its description, else its short id.
    private static func label(of clothes: Clothes) -> String {
        clothes.descriptions.isEmpty ? shortID(clothes.id) : clothes.descriptions
    }
}
