import ClosetCore
import ClosetLanguage
import Foundation

/// `export styles [season=..] [sort=..] to=<file>`: styles to JSON or CSV.
enum ExportStyles {
    static let spec = CommandSpec(
        path: ["export", "styles"],
        summary: "write styles to a .json or .csv file",
        keys: ListStyles.filterKeys + [
            TransferFiles.toKey
        ],
        examples: ["export styles to=styles.json"],
        keysRepeat: true,
        run: { invocation in
            try Wardrobe.export(Wardrobe.outcome(ListStyles.filteredStyles(invocation)), invocation)
        })
}
