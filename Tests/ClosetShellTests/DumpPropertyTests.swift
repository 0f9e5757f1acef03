import ClosetCore
import ClosetLanguage
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing
import WardrobePack

/// Every value a store can hold dumps to statements that recreate it exactly: random text with
/// control characters, CR and LF, quotes, backslashes, Hangul, emoji and bidi overrides, and
/// instants from the first to the last millisecond `created=` accepts.
@Suite struct DumpPropertyTests {
    static let stores = 10_000
    static let pieces: [String] = [
        "\"", "\\", "\\n", "\r\n", "\n", "\r", "\t", "\u{1B}[2J", "\u{1B}]0;t\u{7}", "\u{7F}", "\u{9B}", "\u{202E}",
        "\u{2028}", "\0", "#", "=", ",", " ", "'", "니트", "🧥", "e\u{301}", "$c1", "@1", "none", "x", "\u{FEFF}",
    ]

    static func text(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    static func instant(_ random: inout SeededRandom) -> Date {
        let earliest: Int64 = -62_167_219_200_000  // 0000-01-01T00:00:00Z
        let latest: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999Z
        let edges = [earliest, latest, 0, -1, 1]
        let millis =
            Bool.random(using: &random)
            ? edges.randomElement(using: &random) ?? 0 : Int64.random(in: earliest...latest, using: &random)
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// A session and its host (the session holds its host unowned).
    func session(_ store: Store) throws -> (Session, RecordingHost) {
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        let host = RecordingHost()
        return (try SessionFactory.makeSession(store: store, host: host, configuration), host)
    }

    func dump(_ session: Session) throws -> String {
        try Dump.script(of: session, imageFolder: nil) { _, _ in }
    }

    @Test func randomStoresDumpAndReplayExactly() throws {
        var random = SeededRandom(seed: 20_261_122)
        for number in 0..<Self.stores {
            let wardrobe = MemoryWardrobe()
            var clothes: [Clothes] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let item = Clothes(
                    id: UUID(), createdAt: Self.instant(&random),
                    category: ClothesCategory.allCases.randomElement(using: &random) ?? .top,
                    weatherType: WeatherType.allCases.randomElement(using: &random) ?? .fall,
                    descriptions: Self.text(&random))
                try wardrobe.save(clothes: item)
                clothes.append(item)
            }
            if Bool.random(using: &random), let first = clothes.first {
                let name: String? = Bool.random(using: &random) ? Self.text(&random) : nil
                try wardrobe.save(
                    style: Style(
                        uuid: UUID(), createdAt: Self.instant(&random), clothes: [first.category: first],
                        weather: .allWeather, name: name))
            }
            try wardrobe.commit()
            let (original, originalHost) = try session(wardrobe.base)
            let script = try dump(original)
            withExtendedLifetime(originalHost) {}
            let (replay, host) = try session(MemoryStore(SessionFactory.tables))
            replay.runScript(script, name: "dump")
            guard host.standardError.isEmpty, try dump(replay) == script else {
                Issue.record("store \(number) does not replay:\n\(script)\n\(host.standardError)")
                return
            }
            #expect(replay.wardrobe.fetchAllClothes() == wardrobe.fetchAllClothes())
        }
    }
}
