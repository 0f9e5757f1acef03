import ClosetCore
import Foundation
import TestSupport
import Testing
import WardrobePack

@testable import ClosetLanguage

/// Runs a statement through the evaluator and returns the diagnostic it throws, if any: tests
/// pin problems by catalogue id and by the word they point at, not by wording.
func diagnostic(_ line: String, in harness: Harness) -> Diagnostic? {
    do {
        guard let statement = try Parser.parse(line, examples: harness.session.registry.syntaxExamples) else {
            return nil
        }
        let savepoint = harness.session.store.savepoint()
        defer { harness.session.store.rollback(to: savepoint) }
        _ = try Evaluator(session: harness.session).evaluate(statement)
        return nil
    } catch let error as Diagnostic {
        return error
    } catch {
        return Diagnostic("unexpected", "\(error)", at: nil)
    }
}

/// The text a diagnostic's range covers.
func marked(_ line: String, _ diagnostic: Diagnostic?) -> String? {
    guard let range = diagnostic?.range else { return nil }
    return String(decoding: Array(line.utf8)[range.lower..<range.upper], as: UTF8.self)
}

@Suite struct BinderTests {
    let harness: Harness

    init() {
        harness = Harness()
        harness.run("add clothes category=top season=fall description=knit")
        harness.run("add clothes category=bottom season=fall description=jeans")
        harness.run("list clothes")
    }

    @Test(arguments: [
        ("list clothes colour=red", "unknown-name", "colour"),
        ("list clothes season=fal", "unknown-name", "fal"),
        ("add clothes category=top category=top season=fall", "binder.key-twice", "category"),
        ("add clothes category=top,bottom season=fall", "binder.one-value", "bottom"),
        ("list clothes limit=-1", "binder.not-a-count", "-1"),
        ("cache limit bytes=12XB", "binder.not-a-size", "12XB"),
        ("add clothes category=top season=fall created=2024-13-01", "binder.not-a-date", "2024-13-01"),
        ("add clothes category=top season=fall id=xyz", "binder.not-a-full-id", "xyz"),
        ("add style top=@2", "binder.constraint", "@2"),
        ("show clothes @1 @2", "binder.unexpected-word", "@2"),
        ("season=fall", "registry.expected-command", "season=fall"),
    ])
    func eachBadArgumentIsNamedAtItsWord(_ line: String, _ id: String, _ word: String) {
        let found = diagnostic(line, in: harness)
        #expect(found?.id.rawValue == id, "\(line): \(found?.message ?? "no error")")
        #expect(marked(line, found) == word, "\(line)")
    }

    @Test func aMissingParameterPointsAtTheCommand() {
        let found = diagnostic("show clothes", in: harness)
        #expect(found?.id == "binder.missing-parameter")
        #expect(found?.message == "'show clothes' needs a clothes reference (id, id prefix, $variable or @N)")
    }

    @Test func theConstraintReasonComesFromThePack() {
        #expect(diagnostic("add style top=@2", in: harness)?.message == "'@2' is a bottom, not a top")
        #expect(diagnostic("add style top=@1 bottom=@2", in: harness) == nil)
    }

    @Test func vocabularyValuesBindToTheirCodesInEitherLanguage() throws {
        for line in ["count clothes season=가을", "count clothes season=FALL", "count clothes season=autumn"] {
            #expect(diagnostic(line, in: harness) == nil, "\(line)")
        }
        #expect(diagnostic("count clothes season=Fall,사계절", in: harness) == nil)
    }
}

/// A field's Korean label is its key in Korean: bound as the English key, so what is stored,
/// echoed by `.dump` and refused is the same whichever is typed.
@Suite struct KoreanKeyTests {
    @Test func aKoreanKeyBindsAsItsEnglishOne() {
        let korean = Harness(format: .json)
        let english = Harness(format: .json)
        #expect(korean.run("add clothes 옷종류=상의 계절=가을 설명=\"니트\" id=E220A839-7B1D-4DAF-AE78-9E6AA1B965F4"))
        #expect(
            english.run(
                "add clothes category=top season=fall description=\"니트\" id=E220A839-7B1D-4DAF-AE78-9E6AA1B965F4"))
        #expect(korean.host.standardOutput == english.host.standardOutput)
        #expect(korean.output(".dump") == english.output(".dump"))
    }

    @Test func aKeyGivenInBothLanguagesIsGivenTwice() {
        let harness = Harness()
        let line = "add clothes season=fall 계절=겨울 category=top"
        let found = diagnostic(line, in: harness)
        #expect(found?.id.rawValue == "binder.key-twice")
        #expect(marked(line, found) == "계절")
    }
}

@Suite struct ReferencesTests {
    let harness: Harness
    let ids: [String]

    init() throws {
        harness = Harness(format: .csv)
        harness.run("add clothes category=top season=fall description=knit")
        harness.run("add clothes category=shoes season=fall description=boots")
        harness.run("list clothes category=top")
        harness.run("add style top=@1")
        harness.run("let $style = list styles")
        harness.run("let $gone = add clothes category=outer season=all")
        harness.run("remove clothes $gone")
        let listed = harness.output("list clothes sort=old")
        ids = listed.split(separator: "\r\n").dropFirst().map { String($0.prefix(36)) }
    }

    @Test(arguments: [
        ("show clothes 12", "reference.prefix-too-short", "12"),
        ("show clothes zzzz", "reference.not-a-reference", "zzzz"),
        ("show clothes 00000000", "reference.no-prefix-match", "00000000"),
        (
            "show clothes 00000000-0000-4000-8000-000000000000", "reference.no-such-id",
            "00000000-0000-4000-8000-000000000000"
        ),
        ("show clothes @0", "reference.not-a-row", "@0"),
        ("show clothes @9", "reference.no-such-row", "@9"),
        ("show clothes $style", "reference.variable-kind", "$style"),
        ("show clothes $nope", "unknown-name", "$nope"),
        ("show clothes $gone", "reference.removed", "$gone"),
        ("show style @1", "reference.row-kind", "@1"),
    ])
    func eachBadReferenceIsNamedAtItsWord(_ line: String, _ id: String, _ word: String) {
        harness.run("list clothes")
        let found = diagnostic(line, in: harness)
        #expect(found?.id.rawValue == id, "\(line): \(found?.message ?? "no error")")
        #expect(marked(line, found) == word, "\(line)")
    }

    @Test func aFullIdAUniquePrefixAVariableAndARowAllResolve() {
        harness.run("list clothes sort=old")
        #expect(ids.count == 2)
        for reference in [ids[0], String(ids[0].prefix(6)), String(ids[0].prefix(4)).lowercased(), "@2"] {
            #expect(diagnostic("show clothes \(reference)", in: harness) == nil, "\(reference)")
        }
        #expect(diagnostic("edit style $style name=x", in: harness) == nil)
    }

    @Test func nothingListedYetIsItsOwnProblem() {
        let fresh = Harness()
        fresh.run("add clothes category=top season=fall")
        #expect(diagnostic("show clothes @1", in: fresh)?.id == "reference.nothing-listed")
    }
}

@Suite struct AmbiguityAndVarsTests {
    @Test func ambiguousCandidatesAreShownLongEnoughToTellApart() {
        let harness = Harness()
        harness.run("add clothes id=00000000-0000-4000-8000-000000000001 category=top season=fall")
        harness.run("add clothes id=00000000-0000-4000-8000-000000000002 category=top season=fall")
        let found = diagnostic("show clothes 0000", in: harness)
        #expect(found?.id == "reference.ambiguous")
        #expect(
            found?.message.contains("(00000000-0000-4000-8000-000000000001, 00000000-0000-4000-8000-000000000002)")
                == true, "\(found?.message ?? "")")
    }

    @Test func varsIsDataInJSONModeEvenWhenEmpty() {
        let harness = Harness(format: .json)
        #expect(harness.output(".vars") == "[]\n")
    }
}

@Suite struct VariableCompletionTests {
    @Test func aSlotOffersOnlyVariablesThatFitIt() {
        let harness = Harness()
        harness.run("let $knit = add clothes category=top season=fall")
        harness.run("let $jeans = add clothes category=bottom season=fall")
        let completer = Completer(session: harness.session) { _ in [] }
        let offered = completer.complete(line: "add style top=$", cursor: 15).candidates.map(\.text)
        #expect(offered == ["top=$knit"])
    }
}
