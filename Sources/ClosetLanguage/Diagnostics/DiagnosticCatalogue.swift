import ClosetCore
import ClosetNetwork
import ClosetTables

/// Every message the engine gives, by id, in one place: the wording is checked here once and
/// the stages name the problem instead of spelling it. Grouped by the stage that finds it.
extension Diagnostic {
    // MARK: syntax (lexer and parser)

    static func unknownEscape(_ shown: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "syntax.unknown-escape",
            "unknown escape '\(shown)' in a string; use \\\" \\\\ \\n \\t \\r \\e or \\u{hex}", at: range)
    }

    static func badUnicodeEscape(at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "syntax.bad-unicode-escape", "a \\u escape is \\u{ then 1 to 6 hex digits of a Unicode scalar, then }",
            at: range)
    }

    static func unterminatedString(closing quote: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("syntax.unterminated-string", "unterminated string: add a closing \(quote)", at: range)
    }

    static let expectedDotCommand = Diagnostic("syntax.expected-dot-command", "expected a dot command", at: nil)
    static let expectedLet = Diagnostic("syntax.expected-let", "expected 'let'", at: nil)

    static func letNeedsVariable(example: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("syntax.let-needs-variable", "expected a variable after 'let', like '\(example)'", at: range)
    }

    static func invalidVariableName(_ raw: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "syntax.invalid-variable-name", "'\(raw)' is not a valid variable name: use $ then letters, digits or _",
            at: range)
    }

    static func expectedEquals(after raw: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("syntax.expected-equals", "expected '=' after '\(raw)'", at: range)
    }

    static func expectedCommandAfterEquals(at range: SourceRange) -> Diagnostic {
        Diagnostic("syntax.expected-command", "expected a command after '='", at: range)
    }

    static func unexpectedEquals(at range: SourceRange) -> Diagnostic {
        Diagnostic("syntax.unexpected-equals", "unexpected '=': write arguments as key=value with no blanks", at: range)
    }

    static func unexpectedComma(example: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("syntax.unexpected-comma", "unexpected ',': list values go after a key, like \(example)", at: range)
    }

    static func missingValue(after what: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("syntax.missing-value", "missing value after \(what)", at: range)
    }

    // MARK: resolving a command

    static let expectedCommand = Diagnostic("registry.expected-command", "expected a command", at: nil)

    static func expectedCommand(before argument: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("registry.expected-command", "expected a command before '\(argument)...'", at: range)
    }

    static func quotedCommandName(_ verb: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("registry.quoted-command", "a command name is written without quotes: \(verb)", at: range)
    }

    static func needsObject(_ verb: String, among objects: [String], at range: SourceRange) -> Diagnostic {
        Diagnostic("registry.needs-object", "'\(verb)' needs one of: \(objects.joined(separator: ", "))", at: range)
    }

    // MARK: binding

    static func unexpectedWord(
        _ word: String, command: String, takes: String, longer: [String] = [], at range: SourceRange
    ) -> Diagnostic {
        let others = longer.isEmpty ? "" : " (there is also " + longer.map { "'\($0)'" }.joined(separator: ", ") + ")"
        return Diagnostic(
            "binder.unexpected-word", "unexpected '\(word)': '\(command)' takes \(takes)\(others)", at: range)
    }

    static func missingParameter(command: String, needs: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("binder.missing-parameter", "'\(command)' needs \(needs)", at: range)
    }

    /// A required key left out, or given empty where the command needs a value: one message
    /// for every pack, with the app's own words when it has them.
    public static func missingKey(_ key: KeySpec, command: String, at range: SourceRange?) -> Diagnostic {
        let why = key.whenMissing.map { " (\($0))" } ?? ""
        var diagnostic = Diagnostic(
            "binder.missing-key", "'\(command)' needs \(key.name)=\(key.placeholder)\(why)", at: range)
        diagnostic.missingKey = key.name
        return diagnostic
    }

    /// An edit given nothing to change, naming the keys it takes.
    static func nothingToChange(keys: [String], at range: SourceRange?) -> Diagnostic {
        let keys = keys.map { $0 + "=" }
        let listed =
            keys.count > 1 ? keys.dropLast().joined(separator: ", ") + " or " + (keys.last ?? "") : keys.joined()
        return Diagnostic("edit.nothing-to-change", "nothing to change: give \(listed)", at: range)
    }

    /// Every required key left out, named at once (the first is the diagnostic's key).
    static func missingKeys(_ keys: [KeySpec], command: String, at range: SourceRange?) -> Diagnostic {
        guard keys.count > 1, let first = keys.first else {
            return missingKey(keys.first ?? KeySpec("", .text, ""), command: command, at: range)
        }
        let named = keys.map { "\($0.name)=\($0.placeholder)" }
        // The app's reasons once each (a form's one message for every empty field).
        var reasons: [String] = []
        for reason in keys.compactMap(\.whenMissing) where !reasons.contains(reason) { reasons.append(reason) }
        let why = reasons.isEmpty ? "" : " (" + reasons.joined(separator: " ") + ")"
        var diagnostic = Diagnostic(
            "binder.missing-key",
            "'\(command)' needs " + named.dropLast().joined(separator: ", ") + " and " + (named.last ?? "") + why,
            at: range)
        diagnostic.missingKey = first.name
        return diagnostic
    }

    /// None of the keys of which the command needs at least one.
    static func needsOneOf(_ keys: [KeySpec], command: String, at range: SourceRange?) -> Diagnostic {
        let named = keys.map { "\($0.name)=\($0.placeholder)" }
        let list =
            named.count > 1 ? named.dropLast().joined(separator: ", ") + " or " + (named.last ?? "") : named.joined()
        return Diagnostic("binder.needs-one-of", "'\(command)' needs \(list)", at: range)
    }

    static func keyGivenTwice(_ key: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.key-twice", "'\(key)' is given twice", at: range)
    }

    static func secretNotAsked(_ key: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "binder.secret-not-asked",
            "\(key)=? asks for the \(key) at a terminal, and there is none here (or it was cancelled); give \(key)=<text>",
            at: range)
    }

    static func takesOneValue(_ key: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.one-value", "'\(key)' takes one value", at: range)
    }

    static func notACount(_ key: String, _ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.not-a-count", "'\(key)' takes a whole number ≥ 0, not '\(text)'", at: range)
    }

    /// A whole number its field's declared rule refuses (a donation of 1,500 won).
    static func refusedByRule(_ rule: WholeNumberRule, _ number: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.refused-by-rule", rule.refusal(number), at: range)
    }

    static func countOutOfRange(_ key: String, _ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "binder.count-out-of-range",
            "'\(key)' takes a whole number from 0 to \(WholeNumber.maximum), not '\(text.count > 24 ? text.prefix(20) + "…" : text)'",
            at: range)
    }

    /// A numbered id given as 0: ids a pack numbers start at 1 (an import reads 0 as none).
    public static func idStartsAtOne(_ key: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "store.id-from-one", "'\(key)' takes a whole number from 1 to \(WholeNumber.maximum), not 0", at: range)
    }

    /// The next id of a sequence would pass the largest whole number a statement (and so a
    /// dump) can write: refused rather than stored unreplayable.
    public static func noIDLeft(_ what: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "store.no-id-left",
            "no new \(what) id is left: the last one is \(WholeNumber.maximum); give id= a free one", at: range)
    }

    static func notASize(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "binder.not-a-size", "'\(text)' is not a size; write a whole number with B, KB, MB or GB, like 200MB",
            at: range)
    }

    static func notADate(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("binder.not-a-date", "'\(text)' is not a date; write 2024-05-17 or 2024-05-17T09:30:00Z", at: range)
    }

    static func notAFullID(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "binder.not-a-full-id", "'\(text)' is not a full id (a UUID like E220A839-7B1D-4DAF-AE78-9E6AA1B965F4)",
            at: range)
    }

    static func constraintNotMet(_ word: String, reason: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.constraint", "'\(word)' \(reason)", at: range)
    }

    static func packNotInstalled(command: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.pack-not-installed", "'\(command)' needs a pack that is not installed", at: range)
    }

    static func needsReference(command: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.needs-reference", "'\(command)' needs a reference", at: range)
    }

    static func notAPicture(_ path: String, problem: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("binder.not-a-picture", "'\(path)' is \(problem)", at: range)
    }

    // MARK: references

    static func noPackHolds(_ kind: EntityKind, at range: SourceRange) -> Diagnostic {
        Diagnostic("reference.no-pack", "no installed pack holds \(kind.plural)", at: range)
    }

    static func variableOfOtherKind(_ name: String, holds held: EntityKind, not kind: EntityKind, at range: SourceRange)
        -> Diagnostic
    {
        Diagnostic("reference.variable-kind", "'$\(name)' is \(held.indefinite), not \(kind.indefinite)", at: range)
    }

    static func variableHoldsMany(_ name: String, _ kind: EntityKind, count: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic("reference.variable-many", "'$\(name)' holds \(kind.counted(count)); one is needed here", at: range)
    }

    static func pictureNeedsEntity(_ word: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "picture.needs-entity",
            "'\(word)' names no entity: export picture takes @N of a listing or a $variable bound by show or add",
            at: range)
    }

    static func noPicture(_ kind: EntityKind, _ key: EntityKey, number: Int, has: Int, at range: SourceRange?)
        -> Diagnostic
    {
        Diagnostic(
            "picture.none",
            has == 0
                ? "\(kind.singular) \(key.short) has no picture"
                : "\(kind.singular) \(key.short) has \(has) picture\(has == 1 ? "" : "s"), not \(number)",
            at: range)
    }

    static func pictureUnavailable(_ what: String, because reason: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("picture.unavailable", "\(what) cannot be exported: \(reason)", at: range)
    }

    static func nothingWithPictures(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "picture.no-listing",
            "export pictures writes the last listing's pictures, and it has none: list photos or saved photos first",
            at: range)
    }

    static func variableIsCount(_ name: String, not kind: EntityKind, at range: SourceRange) -> Diagnostic {
        Diagnostic("reference.variable-count", "'$\(name)' is a count, not \(kind.indefinite)", at: range)
    }

    static func rowOfOtherKind(_ word: String, listed: EntityKind, not kind: EntityKind, at range: SourceRange)
        -> Diagnostic
    {
        Diagnostic(
            "reference.row-kind", "'\(word)' is a row of the last \(listed.singular) listing, not \(kind.indefinite)",
            at: range)
    }

    static func removed(_ word: String, _ kind: EntityKind, _ key: EntityKey, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "reference.removed", "'\(word)' refers to \(kind.singular) \(key.short), which was removed", at: range)
    }

    static func notARowReference(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "reference.not-a-row", "'\(text)' is not a row reference; write @1 for the first row of the last listing",
            at: range)
    }

    static func nothingListed(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "reference.nothing-listed", "'\(text)' refers to the last listing, and nothing has been listed yet",
            at: range)
    }

    static func noSuchRow(_ text: String, rows: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "reference.no-such-row", "there is no row \(text): the last listing had \(rows) row\(rows == 1 ? "" : "s")",
            at: range)
    }

    static func noSuchID(_ kind: EntityKind, _ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("reference.no-such-id", "no \(kind.singular) has id '\(text)'", at: range)
    }

    static func notAReference(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "reference.not-a-reference",
            "'\(text)' is not a reference: use an id or id prefix, a $variable, or @N for a row of the last listing",
            at: range)
    }

    static func prefixTooShort(_ text: String, minimum: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "reference.prefix-too-short", "id prefix '\(text)' is too short: type at least \(minimum) characters",
            at: range)
    }

    static func noPrefixMatch(_ kind: EntityKind, _ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("reference.no-prefix-match", "no \(kind.singular) has an id starting with '\(text)'", at: range)
    }

    static func ambiguousPrefix(_ text: String, matches: String, shown: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("reference.ambiguous", "'\(text)' matches \(matches) (\(shown)); type more of the id", at: range)
    }

    // MARK: evaluation

    static func nothingToBind(_ command: String, returnable: String, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "evaluate.nothing-to-bind",
            "'\(command)' returns nothing to bind; 'let' takes a command that returns \(returnable)", at: range)
    }

    /// An app's own alert text, thrown by a pack's repository.
    static func appMessage(
        _ message: String, id: String? = nil, korean: String? = nil, at range: SourceRange?
    ) -> Diagnostic {
        Diagnostic(Diagnostic.ID(rawValue: id ?? "app.message"), message, at: range, korean: korean)
    }

    /// The store itself failed: reported in the engine's words.
    static func couldNotSave(_ error: StoreError) -> Diagnostic {
        Diagnostic("store.could-not-save", "could not save: \(error.description)", at: nil)
    }

    /// `.check` (and `closet check`) found damage: every problem, in one line.
    package static func storeDamaged(_ location: String, _ problems: [String], at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "store.damaged",
            "store '\(location)' is damaged: \(problems.joined(separator: "; ")); 'closet recover \(location)' copies what is intact into a new store",
            at: range)
    }

    /// The store failed while a statement ran (a picture that could not be written).
    static func storeFailed(_ error: StoreError, at range: SourceRange?) -> Diagnostic {
        Diagnostic("store.failed", "the store could not write: \(error.description)", at: range)
    }

    /// A request gave no usable answer (offline, no recording, refused, a status, bad JSON).
    static func networkFailed(_ error: NetworkError, at range: SourceRange?) -> Diagnostic {
        Diagnostic("network.failed", error.message, at: range)
    }

    static func clockNotAdjustable(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "clock.not-deterministic", "'.clock' works only under --deterministic (the real clock cannot be moved)",
            at: range)
    }

    static func badDuration(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "clock.bad-duration", "'\(text)' is not a duration: use a whole number and s, m, h or d (90s, 5m, 1d)",
            at: range)
    }

    static func badClockDate(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("clock.bad-date", "'\(text)' is not a date: use 2024-05-17 or 2024-05-17T09:30:00Z", at: range)
    }

    static func badUserName(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("user.bad-name", UserName.rule(text), at: range)
    }

    static func nothingToContinue(at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "next.nothing-paged",
            "nothing to continue: 'next' shows the rows after a listing's last (list ... limit=N, or a remote feed's next page)",
            at: range)
    }

    static let expectedToFail = Diagnostic(
        "script.expected-to-fail", "this statement is marked '!' (it must fail), but it succeeded", at: nil)

    /// A person answered no: the statement is not wrong, so no caret under it; in Korean after
    /// a Korean question.
    static func notConfirmed(_ command: String) -> Diagnostic {
        Diagnostic(
            "confirm.declined", "'\(command)' was not confirmed: nothing was removed", at: nil,
            korean: "삭제하지 않았습니다: '\(command)'")
    }

    static func limitFromOne(at range: SourceRange?) -> Diagnostic {
        Diagnostic("next.limit", "limit= shows at least 1 row at a time", at: range)
    }

    static func noNextPage(_ command: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "next.not-paged",
            "'\(command)' showed every row: there is no next page (with limit=N it shows N at a time, and 'next' the next N)",
            at: range)
    }

    public static func noMore(_ kind: EntityKind, at range: SourceRange?) -> Diagnostic {
        Diagnostic("next.no-more", "no more \(kind.plural)", at: range)
    }

    static func unexpected(_ error: Error) -> Diagnostic { Diagnostic("unexpected", "\(error)", at: nil) }

    // MARK: dot commands

    static func usage(_ usage: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("dot.usage", "usage: \(usage)", at: range)
    }

    static func takesNoWords(_ command: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("dot.no-words", "'\(command)' takes no words", at: range)
    }

    static let shellUnavailable = Diagnostic("dot.no-shell", "'.shell' cannot run commands here", at: nil)

    static func shellFailed(_ command: String, status: Int32, at range: SourceRange?) -> Diagnostic {
        Diagnostic("dot.shell-failed", "'\(command)' exited with status \(status)", at: range)
    }

    package static func cannotRun(_ command: String, because reason: String) -> Diagnostic {
        Diagnostic("dot.cannot-run", "cannot run '\(command)': \(reason)", at: nil)
    }

    package static func cannotChangeDirectory(_ path: String, because reason: String) -> Diagnostic {
        Diagnostic("dot.cannot-cd", "cannot change to '\(path)': \(reason)", at: nil)
    }

    package static func cannotOpenStore(_ location: String, because reason: String) -> Diagnostic {
        Diagnostic("dot.cannot-open", "cannot open '\(location)': \(reason)", at: nil)
    }

    static let openInsideScript = Diagnostic(
        "dot.open-in-script", "'.open' works at the prompt and in -c, not inside a script (one transaction, one store)",
        at: nil)

    static func notAnExitCode(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("dot.exit-code", "'\(text)' is not an exit status: use a number from 0 to 255", at: range)
    }

    static func notAWidth(_ text: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("dot.width", "'\(text)' is not a width: use a number of columns from 20 up, or auto", at: range)
    }

    static func readTakesOneFile(at range: SourceRange) -> Diagnostic {
        Diagnostic("dot.read-one-file", "'.read' takes one file; quote a path with spaces", at: range)
    }

    static func readTooDeep(limit: Int, at range: SourceRange) -> Diagnostic {
        Diagnostic(
            "dot.read-too-deep", "'.read' is nested more than \(limit) deep; does a script read itself?", at: range)
    }

    // MARK: files, export and import

    /// A file that cannot be read: the host's reason.
    package static func cannotRead(_ path: String, because reason: String, at range: SourceRange? = nil) -> Diagnostic {
        Diagnostic("file.cannot-read", "cannot read '\(path)': \(reason)", at: range)
    }

    public static func cannotWrite(_ path: String, because reason: String, at range: SourceRange? = nil) -> Diagnostic {
        Diagnostic("file.cannot-write", "cannot write '\(path)': \(reason)", at: range)
    }

    /// A backup that would copy a picture which is not there: the dump fails, naming it.
    static func dumpPictureMissing(_ name: String, of what: String) -> Diagnostic {
        Diagnostic(
            "dump.picture-missing",
            "the picture \(name) of \(what) is missing from the store; 'closet check' names what else is, '--skip-damaged' leaves such pictures out of the dump, 'closet recover' copies what is intact",
            at: nil)
    }

    /// A backup that would copy damage as good: the dump fails, naming it.
    static func dumpPictureDamaged(_ name: String, of what: String) -> Diagnostic {
        Diagnostic(
            "dump.picture-damaged",
            "the picture \(name) of \(what) is damaged (its bytes do not match their checksum); 'closet check' names what else is, '--skip-damaged' leaves such pictures out of the dump, 'closet recover' copies what is intact",
            at: nil)
    }

    /// `bytes` is nil when the size is only known to be over (a pipe).
    package static func fileTooLarge(_ path: String, bytes: Int?, limit: Int) -> Diagnostic {
        let size = bytes.map { "\($0) bytes" } ?? "more than that"
        return Diagnostic("file.too-large", "'\(path)' is over the \(limit >> 20)MB limit (\(size))", at: nil)
    }

    /// Text that is not UTF-8 (a line of stdin, a file, an argument).
    package static func notUTF8(_ what: String, offset: Int, at range: SourceRange? = nil) -> Diagnostic {
        Diagnostic("text.not-utf8", "\(what) is not UTF-8 text: invalid byte at offset \(offset)", at: range)
    }

    static func transferExtension(_ path: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("transfer.extension", "'\(path)' must end in .json or .csv (that picks the format)", at: range)
    }

    static func unreadableImport(_ file: String, line: Int, problem: String, at range: SourceRange) -> Diagnostic {
        Diagnostic("transfer.unreadable", "\(file):\(line): \(problem); nothing was imported", at: range)
    }

    static func badRows(_ count: Int, in file: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "transfer.bad-rows", "\(count) bad row\(count == 1 ? "" : "s") in '\(file)'; nothing was imported",
            at: range)
    }
}
