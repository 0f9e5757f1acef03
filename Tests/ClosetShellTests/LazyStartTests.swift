import ClosetCore
import ClosetLanguage
import ClosetStore
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetShell

/// A statement pays for the packs it uses: pack states and their tables are made on first
/// use, so `count clothes` never instantiates the market's or the community's tables, while
/// `.store`, `.dump` and the banner still see every pack.
@Suite struct LazyStartTests {
    func session(_ store: Store) throws -> (Session, RecordingHost) {
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        let host = RecordingHost()
        return (try SessionFactory.makeSession(store: store, host: host, configuration), host)
    }

    @Test func oneStatementMakesOnlyItsPacksTables() throws {
        let store = SessionFactory.memoryStore()
        let (session, host) = try session(store)
        #expect(store.tables.all.isEmpty)
        #expect(session.executeAndCommit(StatementSource("count clothes")), "\(host.standardError)")
        #expect(Set(store.tables.all.map(\.name)) == ["clothes", "styles"])
        // Every pack answers once asked (the summary of .store names all of them).
        #expect(session.executeAndCommit(StatementSource(".store")))
        #expect(store.tables.all.count == SessionFactory.tables.count)
    }

    @Test func aDurableStoreMakesOnlyTheTablesItHoldsOrIsAskedFor() throws {
        let path = NSTemporaryDirectory() + "closet-lazy-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try SessionFactory.durableStore(at: path) { _ in }
            let (session, host) = try session(store)
            #expect(
                session.executeAndCommit(StatementSource("add story title=t content=c")), "\(host.standardError)")
            try #require(store as? DurableStore).compact()
        }
        let store = try SessionFactory.durableStore(at: path) { _ in }
        // Reopened: the snapshot holds the community's rows; nothing else was made.
        #expect(store.tables.all.allSatisfy { $0.name.hasPrefix("adoption.") }, "\(store.tables.all.map(\.name))")
        let (session, host) = try session(store)
        #expect(session.executeAndCommit(StatementSource("list stories")), "\(host.standardError)")
        #expect(host.standardOutput.contains("(1 row)"))
    }
}

/// A listing read from a durable store's index (its rows and keys read as they are written,
/// `IndexedRowList`) shows what the same statements show over rows in memory, and its `@N`
/// name the rows it showed, after a removal and a page too.
@Suite struct ListingFromTheIndexTests {
    @Test func aListingReadWhereItsRowsLieIsTheListingOfTheRowsInMemory() throws {
        let path = NSTemporaryDirectory() + "closet-listing-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let categories = ["top", "bottom", "outer", "shoes", "accessory"]
        let seasons = ["spring", "summer", "fall", "winter", "all"]
        let script = (0..<60).map { number in
            "add clothes category=\(categories[number % 5]) season=\(seasons[number * 7 % 5]) "
                + "description=\"d\(number)\" created=2024-01-\(String(format: "%02d", number % 28 + 1))"
        }.joined(separator: "\n")
        func session(_ store: Store) throws -> (Session, RecordingHost) {
            var configuration = SessionFactory.Configuration.golden
            configuration.settings.echo = false
            configuration.settings.holdResultsUntilCommit = true
            let host = RecordingHost()
            return (try SessionFactory.makeSession(store: store, host: host, configuration), host)
        }
        do {
            let store = try SessionFactory.durableStore(at: path) { _ in }
            let (session, host) = try session(store)
            session.runScript(script, name: "seed")
            #expect(session.commit(), "\(host.standardError)")
            try #require(store as? DurableStore).compact()
        }
        let (mapped, mappedHost) = try session(try SessionFactory.durableStore(at: path) { _ in })
        let (memory, memoryHost) = try session(SessionFactory.memoryStore())
        memory.runScript(script, name: "seed")
        #expect(memory.commit())
        memoryHost.clear()
        for statement in [
            "list clothes", "show clothes @7", "list clothes season=fall sort=old", "show clothes @2",
            "remove clothes @1", "show clothes @5", "list clothes category=top,shoes", "show clothes @9",
            "list clothes limit=4", "next", "show clothes @6", "list clothes search=d1", "show clothes @3",
        ] {
            mapped.executeAndCommit(StatementSource(statement))
            memory.executeAndCommit(StatementSource(statement))
            #expect(mappedHost.standardOutput == memoryHost.standardOutput, "\(statement)")
            #expect(mappedHost.standardError == memoryHost.standardError, "\(statement)")
        }
        #expect(mapped.tally.failures == 0, "\(mappedHost.standardError)")
        // `@N` is the Nth row listed, as the listing's JSON gives it.
        mapped.settings.format = .json
        mappedHost.clear()
        #expect(mapped.executeAndCommit(StatementSource("list clothes")))
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(mappedHost.standardOutput.utf8)) as? [[String: Any]])
        #expect(listed.count == 59)
        for row in [1, 7, 30, 59] {
            mappedHost.clear()
            #expect(mapped.executeAndCommit(StatementSource("show clothes @\(row)")))
            let shown = try #require(
                try JSONSerialization.jsonObject(with: Data(mappedHost.standardOutput.utf8)) as? [String: Any])
            #expect(shown["id"] as? String == listed[row - 1]["id"] as? String, "@\(row)")
        }
    }
}
