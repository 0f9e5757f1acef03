import ClosetCore
import ClosetTables

/// `.open <store>|:memory:` (sqlite3's `.open`): what was done so far is committed to the
/// store in use, then statements work on the other one (a folder is made if new). Variables
/// and listings are cleared: they name the old store's rows.
enum OpenCommand {
    static let spec = DotCommandSpec(
        name: ".open", summary: "work on another store from now on", arguments: ["<store>|:memory:"],
        choices: [":memory:"], takesPath: true, examples: [".open ~/wardrobe-test", ".open :memory:"],
        run: { invocation in
            let session = invocation.session
            let words = invocation.call.arguments
            guard let word = words.first else {
                throw Diagnostic.usage(invocation.spec.usage, at: invocation.call.name.range)
            }
            guard words.count == 1 else { throw Diagnostic.usage(invocation.spec.usage, at: words[1].range) }
            guard session.scriptDepth == 0 else { throw Diagnostic.openInsideScript.at(invocation.call.range) }
            let opened: (store: Store, cacheRoot: String?)
            do {
                opened = try session.host.openStore(at: word.text)
            } catch let error as Diagnostic {
                throw error.at(word.range)
            }
            do throws(StoreError) {
                try session.store.commit()
            } catch {
                throw Diagnostic.storeFailed(error, at: invocation.call.range)
            }
            try session.open(opened.store, cacheRoot: opened.cacheRoot)
            let counts = session.packs.summaryCounts.map { $0.0.counted($0.1) }.joined(separator: ", ")
            return .text("store \(TerminalText.visible(opened.store.location)) (\(counts))\n")
        })
}
