import ClosetLanguage
import ClosetLineEditor
import TestSupport
import Testing

@testable import ClosetShell

/// The interactive loop driven by a scripted editor: what a person at the prompt sees.
@Suite struct PromptLoopTests {
    func run(_ inputs: [LineInput]) -> (text: String, editor: ScriptedLineEditor, harness: Harness) {
        let harness = Harness(format: .table)
        let editor = ScriptedLineEditor(inputs)
        var screen = ""
        let loop = PromptLoop(session: harness.session, editor: editor, isTerminal: true, color: false) { screen += $0 }
        loop.afterStatement = {
            screen += harness.host.transcript
            harness.host.clear()
        }
        loop.run()
        return (screen, editor, harness)
    }

    @Test func continuationLinesUseTheContinuationPrompt() {
        let (_, editor, harness) = run([.line("add clothes category=top \\"), .line("  season=fall description=knit")])
        #expect(editor.prompts.prefix(3) == ["closet> ", "   ...> ", "closet> "])
        #expect(harness.store.clothesCount == 1)
    }

    @Test func ctrlCDropsTheHalfTypedStatementAndGivesAFreshPrompt() {
        let (text, editor, harness) = run([
            .line("add clothes category=top \\"), .interrupted, .line("season=fall"), .line("count clothes"),
        ])
        #expect(editor.prompts.prefix(3) == ["closet> ", "   ...> ", "closet> "])
        #expect(harness.store.clothesCount == 0)  // the continued statement never ran
        #expect(harness.session.tally.failures == 1, "\(text)")  // season=fall alone is not a command
    }

    /// A secret key's value never reaches the history file or the screen's error listing, and
    /// its mask does not tell its length.
    @Test func passwordsAreMaskedInHistoryAndErrors() {
        let (text, editor, _) = run([.line("remove product 7 password=hunter2"), .line("count products"), .endOfInput])
        #expect(editor.remembered.first == "remove product 7 password=********")
        #expect(!text.contains("hunter2"))
        #expect(
            SecretMask.mask(#"edit product 1 password="a b\" c" stock=2"#, keys: ["password"])
                == #"edit product 1 password=******** stock=2"#)
        #expect(
            SecretMask.mask("remove product 1 password=x", keys: ["password"]) == "remove product 1 password=********")
        #expect(SecretMask.mask("remove product 1 password= x", keys: ["password"]) == "remove product 1 password= x")
        #expect(SecretMask.mask("add note text=password=x", keys: ["password"]) == "add note text=password=x")
    }

    @Test func ctrlDQuitsAndClosesTheEditor() {
        let (text, editor, _) = run([.line("count clothes"), .endOfInput, .line("never read")])
        #expect(editor.closed)
        #expect(editor.inputs == [.line("never read")])
        #expect(text.hasPrefix("closet \(ClosetCommand.version) · store :memory: (empty)"))
    }

    /// Issue 25, item 8: the banner counts every pack's rows, singular where one.
    @Test func theBannerCountsWhatEveryPackHolds() throws {
        let harness = Harness(format: .table)
        #expect(harness.run("donate amount=1000"))
        #expect(harness.run("add clothes category=top season=fall"))
        #expect(harness.run("add clothes category=top season=fall"))
        #expect(PromptLoop.banner(harness.session).contains("(2 clothes, 1 donation)"))
    }

    /// Issue 45, item 4: a banner wider than the terminal puts its help on a line of its own
    /// instead of wrapping mid-word; one that fits stays one line.
    @Test func theBannerFitsTheTerminal() {
        let harness = Harness(format: .table)
        harness.session.settings.terminalWidth = 120
        #expect(PromptLoop.banner(harness.session).split(separator: "\n").count == 1)
        harness.session.settings.terminalWidth = 60
        let lines = PromptLoop.banner(harness.session).split(separator: "\n")
        #expect(lines.count == 2 && lines[1] == "'.help' for help, Ctrl-D to quit")
        #expect(lines.allSatisfy { $0.count <= 60 })
    }

    @Test func quitStopsTheLoop() {
        let (_, editor, _) = run([.line(".quit"), .line("count clothes")])
        #expect(editor.inputs == [.line("count clothes")])
        #expect(editor.closed)
    }

    /// Issue 10 (12): a continued statement is one history entry; an abandoned one is none.
    @Test func aWholeStatementIsOneHistoryEntry() {
        let (_, editor, _) = run([
            .line("count clothes \\"), .line("  season=fall"), .line("add clothes category=top \\"), .interrupted,
            .line("count styles"),
        ])
        #expect(editor.remembered == ["count clothes season=fall", "count styles"])
    }

    @Test func everyLineIsOfferedToTheHistory() {
        let (_, editor, _) = run([.line("count clothes"), .line(" secret"), .line("")])
        #expect(editor.remembered == ["count clothes", " secret", ""])  // the editor filters
    }

    @Test func errorsAtThePromptHaveNoFilePosition() {
        let (text, _, _) = run([.line("lsit clothes")])
        #expect(text.contains("error: unknown command 'lsit'; did you mean 'list'?\nlsit clothes\n^^^^\n"))
    }

    @Test func helpIsGeneratedFromTheRegistry() {
        let (text, _, _) = run([.line(".help add clothes")])
        #expect(
            text.contains(
                "usage: add clothes category=<category> season=<season> [description=<text>] [image=<path>] [created=<date>]"
            ))
        #expect(text.contains("outer (외투), top (상의)"))
    }

    @Test func colouredPromptsHideTheirEscapesFromLibedit() {
        let loop = PromptLoop(session: Harness().session, editor: ScriptedLineEditor([]), isTerminal: true, color: true)
        { _ in }
        #expect(loop.prompt(continuing: false) == "\u{1}\u{1B}[1;32m\u{1}closet>\u{1}\u{1B}[0m\u{1} ")
        #expect(loop.prompt(continuing: true) == "   \u{1}\u{1B}[1;32m\u{1}...>\u{1}\u{1B}[0m\u{1} ")
    }
}

@Suite struct CompletionOfferTests {
    func offer(_ texts: [String], endsWord: Bool = true) -> CompletionOffer {
        CompletionOffer(wordStart: 0, choices: texts.map { .init(text: $0, display: $0, endsWord: endsWord) })
    }

    @Test func oneChoiceCompletesWithABlank() {
        #expect(offer(["filter"]).action(typed: "fil") == .replace(with: "filter "))
        #expect(offer(["season="], endsWord: false).action(typed: "sea") == .replace(with: "season="))
    }

    @Test func severalExtendToTheirCommonPrefixThenList() {
        #expect(
            offer(["season=fall", "season=full"]).action(typed: "season=f") == .list(["season=fall", "season=full"]))
        #expect(offer(["remove", "read"]).action(typed: "r") == .replace(with: "re"))
    }

    /// Names with blanks: the common part of quoted choices extends what was typed unquoted.
    @Test func quotedChoicesExtendTheTypedWord() {
        #expect(
            offer(["'my photos/", "'my coat.png'"]).action(typed: "my") == .replace(with: "'my "))
        #expect(
            offer(["image='my photos/", "image='my coat.png'"]).action(typed: "image=my")
                == .replace(with: "image='my "))
    }

    @Test func noneBeeps() {
        #expect(offer([]).action(typed: "zz") == .beep)
    }

    @Test func columnsFitTheWidth() {
        let text = CompletionOffer.columns(["aa", "bb", "cc"], width: 8, cellWidth: { $0.count })
        #expect(text == "aa  bb\ncc\n")
    }
}
