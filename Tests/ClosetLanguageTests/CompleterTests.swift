import ClosetCore
import ClosetLineEditor
import Foundation
import TestSupport
import Testing
import WardrobePack

@testable import ClosetLanguage

/// Tab completion in a dozen contexts, all fed by the registry and the session.
@Suite struct CompleterTests {
    let harness: Harness
    let completer: Completer

    init() throws {
        harness = Harness()
        let store = harness.store
        try store.save(
            clothes: Clothes(
                id: UUID(uuidString: "AB120000-0000-4000-8000-000000000001")!, category: .top, weatherType: .fall,
                descriptions: "navy knit"))
        try store.save(
            clothes: Clothes(
                id: UUID(uuidString: "AB340000-0000-4000-8000-000000000002")!, category: .bottom, weatherType: .fall,
                descriptions: "jeans"))
        try store.save(
            style: Style(
                uuid: UUID(uuidString: "CD560000-0000-4000-8000-000000000003")!, clothes: [:], weather: .fall,
                name: "look"))
        harness.run("let $knit = show clothes ab12")
        completer = Completer(session: harness.session) { partial in
            ["photos/", "photos.txt", "pants.png", "my photos/", "my coat.png", "it's.png"].filter {
                $0.hasPrefix(partial)
            }
        }
    }

    func texts(_ line: String) -> [String] {
        completer.complete(line: line, cursor: line.utf8.count).candidates.map(\.text)
    }

    @Test func commandsAtTheStart() {
        #expect(texts("fil") == ["filter"])
        #expect(texts("re") == ["remove"])
        #expect(texts("").contains("add") && texts("").contains(".help"))
    }

    @Test func dotCommands() {
        #expect(texts(".mo") == [".mode"])
        #expect(texts(".mode j") == ["json"])
        #expect(texts(".echo ") == ["on", "off"])
        #expect(texts(".help li") == ["list", "like"])
    }

    /// Issue 25, item 6: the gaps a new user met.
    @Test func threeWordCommandsAliasesKoreanWordsAndListsCompleteToo() {
        #expect(texts("cache stats ") == ["posters", "dogs"])
        #expect(texts("cache limit ") == ["dogs", "count=", "bytes="])
        #expect(texts("cache limit d") == ["dogs"])
        #expect(texts("cache limit dogs ") == ["bytes=", "memory="])
        #expect(texts(".ex") == [".exit"])
        #expect(texts(".sys") == [".system"])
        #expect(texts(".help le") == ["let"])
        // `show ` offers the English words; typing Korean offers the Korean ones.
        #expect(!texts("show ").contains("프로필") && texts("show ").contains("profile"))
        #expect(texts("show 옷") == ["옷"])
        #expect(texts("show 프") == ["프로필"])
        // A list does not offer what it already holds.
        #expect(!texts("list clothes category=top,").contains("category=top,top"))
        #expect(texts("list clothes category=top,bo") == ["category=top,bottom"])
        #expect(
            harness.error("cache limit posters").contains(
                "'cache limit' takes no words after its name, only key=value arguments (there is also 'cache limit dogs')"
            ))
    }

    @Test func entitiesAfterAVerb() {
        // Every installed pack's listed entities, once each, in the packs' order: read from the
        // registry, so a pack added later changes nothing here.
        let registry = harness.session.registry
        var listed: [String] = []
        for pack in registry.packs {
            for spec in registry.commands(of: pack) where spec.path.first == "list" && spec.path.count == 2 {
                if !listed.contains(spec.path[1]) { listed.append(spec.path[1]) }
            }
        }
        #expect(texts("list ") == listed)
        #expect(Array(listed.prefix(2)) == ["clothes", "styles"] && listed.count >= 10)
        #expect(
            Set(texts("add s")).isSuperset(of: ["style", "saved", "story"])
                && texts("add s").allSatisfy { $0.hasPrefix("s") })
        #expect(texts("cache ") == ["stats", "limit", "clear"])
    }

    @Test func keysValidForTheCommand() {
        #expect(texts("add clothes ca") == ["category="])
        #expect(texts("add clothes category=top s") == ["season="])
        #expect(texts("list clothes season=fall se") == ["season=", "search="])  // filters may repeat
        #expect(!texts("add clothes category=top ").contains("category="))  // already given
    }

    /// A key in Korean (the app's label, `계절`) is offered once typed into, never in the list of
    /// all, and its values complete as the English key's do.
    @Test func keysInKorean() {
        #expect(texts("add clothes 계") == ["계절="])
        #expect(texts("add clothes 옷") == ["옷종류="])
        #expect(!texts("add clothes ").contains("계절="))
        #expect(!texts("add clothes season=fall 계").contains("계절="))  // already given in English
        #expect(texts("add clothes 계절=가") == ["계절=가을"])
    }

    @Test func enumValuesInEnglishAndKorean() {
        #expect(texts("list clothes season=f") == ["season=fall"])
        #expect(texts("list clothes season=가") == ["season=가을"])
        #expect(texts("list clothes category=top,sh") == ["category=top,shoes"])
        #expect(texts("list clothes sort=") == ["sort=new", "sort=최신순", "sort=old", "sort=오래된순"])
    }

    @Test func idsWhereAReferenceGoesWithTheirDescription() {
        let result = completer.complete(line: "show clothes ab", cursor: 15)
        #expect(result.candidates.map(\.text) == ["AB120000", "AB340000"])
        #expect(result.candidates[0].display == "AB120000  top  navy knit")
        #expect(result.wordStart == 13)
        #expect(texts("show style ") == ["CD560000"])
    }

    @Test func slotsOfferOnlyThatCategory() {
        #expect(texts("add style top=") == ["top=AB120000"])
        #expect(texts("edit style cd56 bottom=") == ["bottom=none", "bottom=AB340000"])
    }

    @Test func variables() {
        #expect(texts("show clothes $k") == ["$knit"])
        #expect(texts("show style $") == [])
    }

    @Test func pathsAfterReadAndImage() {
        #expect(texts(".read pho") == ["photos/", "photos.txt"])
        #expect(texts("add clothes image=pa") == ["image=pants.png"])
        #expect(completer.complete(line: ".read pho", cursor: 9).candidates[0].isComplete == false)  // a folder
    }

    /// A key taking several files completes the one after the last comma.
    @Test func theFileAfterTheLastComma() {
        #expect(
            texts("add product image=pants.png,my") == ["image=pants.png,'my photos/", "image=pants.png,'my coat.png'"])
        #expect(texts("add product image=pants.png,pa") == [])  // a list does not offer a file twice
        #expect(texts("add product image=pa") == ["image=pants.png"])
    }

    /// Issue 10 (13): names with blanks complete quoted; after an opening quote, inside it.
    @Test func pathsWithBlanksCompleteQuoted() {
        #expect(texts(".read my") == ["'my photos/", "'my coat.png'"])
        #expect(texts("add clothes image=my") == ["image='my photos/", "image='my coat.png'"])
        #expect(texts(".read 'my p") == ["'my photos/"])
        #expect(texts(".read \"my c") == ["\"my coat.png\""])
        #expect(texts(".read it") == ["\"it's.png\""])
        #expect(texts("add clothes image='pa") == ["image='pants.png'"])
        // What completes is what the parser reads back as the same path.
        for line in [".read 'my coat.png'", ".read \"it's.png\""] {
            guard case .dot(let call)? = try? Parser.parse(line)?.kind else {
                Issue.record("\(line) does not parse")
                continue
            }
            #expect(["my coat.png", "it's.png"].contains(call.arguments.first?.text ?? ""))
        }
    }

    /// The sqlite3 and psql conveniences complete from the registry like every dot command.
    @Test func conveniencesComplete() {
        #expect(texts(".hea") == [".headers"])
        #expect(texts(".headers o") == ["on", "off"])
        #expect(texts(".mode m") == ["markdown"])
        #expect(texts(".width a") == ["auto"])
        #expect(texts(".once pa") == ["pants.png"])
        #expect(texts(".sh").contains(".shell") && texts(".sh").contains(".show"))
    }

    @Test func afterLet() {
        #expect(texts("let $x = fil") == ["filter"])
        #expect(texts("let $x = list clothes season=w") == ["season=winter"])
    }

    @Test func nothingForFreeText() {
        #expect(texts("add clothes description=na") == [])
        #expect(texts("dance ") == [])
    }
}

/// A long id list is cut at 50 with a notice, and Tab then never narrows the word to a
/// prefix only the shown ids share.
@Suite struct CompletionLimitTests {
    @Test func aCutListSaysSoAndDoesNotNarrow() throws {
        let harness = Harness()
        for n in 0..<60 {
            try harness.store.save(
                clothes: Clothes(
                    id: UUID(uuidString: String(format: "AA%06X-0000-4000-8000-000000000000", n))!, category: .top,
                    weatherType: .fall, descriptions: "knit \(n)"))
        }
        let completer = Completer(session: harness.session) { _ in [] }
        let result = completer.complete(line: "show clothes AA", cursor: 15)
        #expect(result.candidates.count == Completer.idCandidateLimit + 1)
        #expect(result.candidates.last?.display == "(10 more: type more of the id)")
        // What the prompt does with it: lists (the notice last), never replaces "AA" by "AA0000".
        let offer = CompletionOffer(
            wordStart: result.wordStart,
            choices: result.candidates.map { .init(text: $0.text, display: $0.display, endsWord: $0.isComplete) })
        guard case .list(let shown) = offer.action(typed: "AA") else {
            Issue.record("Tab must list a cut list")
            return
        }
        #expect(shown.last == "(10 more: type more of the id)")
    }
}
