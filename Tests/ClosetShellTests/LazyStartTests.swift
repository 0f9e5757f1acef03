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
