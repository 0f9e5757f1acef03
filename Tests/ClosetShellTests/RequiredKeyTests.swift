import ClosetCore
import ClosetLanguage
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing

/// Issue 23: a required key is refused by the binder, for every pack, with one engine
/// diagnostic (`'add story' needs title=<text>`), before the command runs.
@Suite struct RequiredKeyTests {
    /// A value the binder accepts for a key of this kind; nil where it depends on the store.
    static func sample(_ kind: ValueKind) -> String? {
        switch kind {
        case .text: "x"
        case .count: "1000"
        case .size: "1KB"
        case .date: "2024-01-01"
        case .path, .paths: "x.json"
        case .newID: "00000000-0000-4000-8000-000000000001"
        case .vocabulary(let info, _): info.terms.first?.english
        case .reference: nil
        case .name: "3220000"
        }
    }

    @Test func everyPacksRequiredKeysAreRefusedByTheBinderWithOneMessage() throws {
        var checked: [String] = []
        for spec in InstalledPacks.registry.packs.flatMap({ InstalledPacks.registry.commands(of: $0) })
        where spec.parameters.isEmpty {
            let required = spec.keys.filter(\.isRequired)
            for missing in required {
                let others = required.filter { $0.name != missing.name }
                let values = others.map { key in Self.sample(key.kind).map { "\(key.name)=\($0)" } }
                guard values.allSatisfy({ $0 != nil }) else { continue }
                var configuration = SessionFactory.Configuration.golden
                configuration.settings.echo = false
                let host = RecordingHost()
                let session = try SessionFactory.makeSession(
                    store: MemoryStore(SessionFactory.tables), host: host, configuration)
                let line = (spec.path + values.compactMap { $0 }).joined(separator: " ")
                #expect(!session.executeAndCommit(StatementSource(line)), "\(line)")
                let why = missing.whenMissing.map { " (\($0))" } ?? ""
                #expect(
                    host.standardError.hasPrefix(
                        "error: '\(spec.name)' needs \(missing.name)=\(missing.placeholder)\(why)\n"),
                    "\(line): \(host.standardError)")
                checked.append("\(spec.name) \(missing.name)")
            }
        }
        // Every pack with a required key took part.
        for command in [
            "add clothes season", "add saved url", "add product title", "add story content", "donate amount",
            "export clothes to",
        ] {
            #expect(checked.contains(command), "\(command) in \(checked)")
        }
    }

    @Test func aCommandThatNeedsOneOfItsKeysSaysWhich() throws {
        for (line, message) in [
            ("cache limit", "error: 'cache limit' needs count=<n> or bytes=<size>\n"),
            ("cache limit dogs", "error: 'cache limit dogs' needs bytes=<size> or memory=<size>\n"),
        ] {
            var configuration = SessionFactory.Configuration.golden
            configuration.settings.echo = false
            let host = RecordingHost()
            let session = try SessionFactory.makeSession(
                store: MemoryStore(SessionFactory.tables), host: host, configuration)
            #expect(!session.executeAndCommit(StatementSource(line)))
            #expect(host.standardError.hasPrefix(message), "\(host.standardError)")
        }
    }
}

/// Issue 23, item 3: every paged listing takes `limit=` and `next` continues it; a listing
/// that does not page names itself when `next` is asked of it.
@Suite struct PagingRuleTests {
    @Test func everyPagedListingTakesLimit() {
        let commands = InstalledPacks.registry.packs.flatMap { InstalledPacks.registry.commands(of: $0) }
        let paged = commands.filter(\.pages).map(\.name)
        #expect(Set(paged) == ["list photos", "list products", "list dogs", "list stories"])
        for spec in commands where spec.pages {
            #expect(spec.keys.contains { $0.name == "limit" }, "\(spec.name)")
        }
        // Only listings page: nothing else declares it.
        #expect(commands.filter(\.pages).allSatisfy { ["list", "search"].contains($0.path[0]) })
    }

    /// Issue 45, item 2: every listing, paged or not, takes `limit=` and is a listing to the
    /// engine (so `next` continues it and its table says when more come).
    @Test func everyListingTakesLimit() {
        let commands = InstalledPacks.registry.packs.flatMap { InstalledPacks.registry.commands(of: $0) }
        let listings = commands.filter { $0.path[0] == "list" }
        #expect(listings.count >= 10)
        for spec in listings {
            #expect(spec.lists, "\(spec.name) does not declare lists: true")
            #expect(spec.keys.contains { $0.name == "limit" }, "\(spec.name) takes no limit=")
        }
    }

    @Test func aPageIsShownAFewRowsAtATimeAndNextNamesAListingThatDoesNotPage() throws {
        let harness = Harness(format: .json)
        harness.host.binaryFiles["p.png"] = SampleImages.png(width: 2, height: 2)
        for n in 1...5 {
            #expect(
                harness.run(
                    "add product title=p\(n) price=\(n) currency=KRW stock=1 description=d image=p.png password=p"))
        }
        let first = harness.output("list products limit=2")
        #expect(first.hasPrefix("[{\"id\":5,") && first.contains("{\"id\":4,") && !first.contains("{\"id\":3,"))
        #expect(harness.output("next").hasPrefix("[{\"id\":3,"))
        #expect(harness.output("next").hasPrefix("[{\"id\":1,"))
        #expect(harness.error("next").contains("no more products"))
        #expect(harness.run("list clothes"))
        #expect(harness.error("next").contains("'list clothes' showed every row: there is no next page"))
    }
}

/// Issue 23, item 4: `count` for every listable entity, `export` for every stored one, `import`
/// for every stored one `add` creates.
@Suite struct EveryEntityVerbTests {
    @Test func everyListingHasACountAndEveryStoredEntityAnExport() throws {
        let commands = InstalledPacks.registry.packs.flatMap { InstalledPacks.registry.commands(of: $0) }
        let listed = commands.filter { ["list", "search"].contains($0.path[0]) && $0.path.count == 2 }.map {
            $0.path[1]
        }
        #expect(listed.count >= 11)
        for object in listed {
            #expect(commands.contains { $0.path == ["count", object] }, "count \(object)")
        }
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        let session = try SessionFactory.makeSession(
            store: SessionFactory.memoryStore(), host: RecordingHost(), configuration)
        let stored = session.packs.entityCounts.map(\.0)
        #expect(stored.count >= 7)
        for kind in stored {
            #expect(commands.contains { $0.path == ["export", kind.plural] }, "export \(kind.plural)")
        }
        // Import for every stored entity that add creates (pictures and passwords included).
        let creatable = stored.filter { kind in commands.contains { $0.path == ["add", kind.singular] } }
        #expect(creatable.count >= 6)
        for kind in creatable {
            #expect(commands.contains { $0.path == ["import", kind.plural] }, "import \(kind.plural)")
        }
    }

    @Test func theExportsWriteWhatTheListingsShow() throws {
        let harness = Harness(format: .json)
        harness.host.binaryFiles["p.png"] = SampleImages.png(width: 2, height: 2)
        for line in [
            ".user 민지", #"add story title="우리 콩이" content="입양 1년""#, ".user 준호",
            #"add comment story=1 text="축하해요!""#, "donate amount=5000",
            "add product title=x price=10 currency=KRW stock=1 description=d image=p.png password=p",
            "add saved id=ph01iclqgak url=https://images.unsplash.com/photo-1 image=p.png memo=바다",
            "export stories to=s.json", "export comments to=c.csv", "export donations to=d.json",
            "export products to=p.csv", "export saved to=v.json",
        ] {
            #expect(harness.run(line), "\(line): \(harness.host.standardError)")
        }
        let files = harness.host.files
        let stories =
            try JSONSerialization.jsonObject(with: Data(try #require(files["s.json"]).utf8)) as? [[String: Any]]
        #expect(stories?.first?["title"] as? String == "우리 콩이")
        #expect((stories?.first?["comments"] as? [Any])?.count == 1)
        #expect(files["c.csv"]?.hasPrefix("id,story,author,text,createdAt\r\n1,1,준호,축하해요!,") == true)
        #expect(files["d.json"]?.contains("\"amount\":5000") == true)
        #expect(
            files["p.csv"]?.hasPrefix(
                "id,title,description,price,currency,stock,discountedPrice,images,registeredAt\r\n1,x,d,10,KRW,1,,")
                == true)
        #expect(files["p.csv"]?.contains("hash") == false)
        #expect(files["v.json"]?.contains("\"memo\":\"바다\"") == true)
    }
}
