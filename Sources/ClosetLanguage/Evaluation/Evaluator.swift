import ClosetCore
import ClosetNetwork
import ClosetTables
import Foundation

/// The evaluator: a parsed statement → resolved command → bound invocation → the command's
/// outcome. The last listing (for `@N`) and `let` bindings are recorded on the session here.
struct Evaluator {
    let session: Session

    func evaluate(_ statement: Statement) throws -> Outcome {
        switch statement.kind {
        case .command(let call):
            return try run(call)
        case .binding(let binding):
            let outcome = try run(binding.command)
            session.variables[binding.name] = try value(toBind: outcome, binding)
            return .nothing
        case .dot(let call):
            guard let spec = session.registry.dotCommand(named: call.name.text) else {
                throw Diagnostic.unknown(
                    "dot command", call.name.text, at: call.name.range, among: session.registry.dotCommands.map(\.name),
                    hint: "'.help' lists them")
            }
            return try spec.run(DotInvocation(session: session, spec: spec, call: call))
        }
    }

    func run(_ call: CommandCall) throws -> Outcome {
        if call.words.isEmpty, let first = call.arguments.first {
            throw Diagnostic.expectedCommand(before: first.key.text + "=", at: first.range)
        }
        let (spec, words) = try resolve(call.words)
        return try perform(try ArgumentBinder(session: session).bind(spec, words: words, call: call))
    }

    /// The `limit` rows of a listing that limits itself after the first `shown`: it is run
    /// again asking for `shown + limit + 1` (a top-N from an index costs what it returns), and
    /// a page that `next` continues the same way is made when more came than fit.
    static func continuing(_ invocation: Invocation, shown: Int, limit: Int) throws -> Outcome {
        let asking = invocation.replacing("limit", with: .count(shown + limit + 1))
        let outcome = try invocation.spec.run(asking)
        guard case .entities(let all) = outcome, all.isListing, all.page == nil else { return outcome }
        let more = all.keys.count > shown + limit
        var entities = all.slice(shown..<(shown + limit))
        entities.pictures?.items = Array(all.pictures?.items.dropFirst(shown).prefix(limit) ?? [])
        // The statement, not the invocation: a page kept in the session must not hold the session.
        let spec = invocation.spec
        let call = invocation.call
        let parameters = invocation.parameters
        let arguments = invocation.arguments
        let following: @Sendable (Invocation) throws -> Outcome = { next in
            let again = Invocation(
                session: next.session, spec: spec, call: call, parameters: parameters, arguments: arguments)
            return try continuing(again, shown: shown + limit, limit: limit)
        }
        entities.page = Page(firstRow: shown + 1, next: more ? following : nil)
        return .entities(entities)
    }

    /// Runs a bound invocation: the command, its errors said as diagnostics, the engine's
    /// page window, and the listing `@N` and `next` read.
    func perform(_ invocation: Invocation) throws -> Outcome {
        let spec = invocation.spec
        let call = invocation.call
        try confirmRemoval(invocation)
        if spec.windowsPages, invocation.count("limit") == 0 {
            throw Diagnostic.limitFromOne(at: invocation.argument("limit")?.range)
        }
        var outcome: Outcome
        do {
            if spec.limitsItself, let limit = invocation.count("limit"), limit > 0 {
                // One row more than asked, to know whether `next` has any.
                outcome = try Self.continuing(invocation, shown: 0, limit: limit)
            } else {
                outcome = try spec.run(invocation)
            }
        } catch let error as Diagnostic {
            throw error
        } catch let error as NetworkError {
            throw Diagnostic.networkFailed(error, at: call.range)
        } catch let error as any LocalizedMessage {
            // A pack's own error (an app's alert text) is about the statement as a whole.
            throw Diagnostic.appMessage(
                error.message, id: error.diagnosticID, korean: error.koreanMessage, at: call.range)
        } catch let error as StoreError {
            throw Diagnostic.storeFailed(error, at: call.range)
        }
        if spec.windowsPages, let limit = invocation.count("limit"), case .entities(let entities) = outcome {
            outcome = .entities(PageWindow.window(entities, limit: limit))
        }
        // Asked first: binding the entities of every outcome copied them (an add's too).
        guard outcome.isListing else { return outcome }
        switch outcome {
        case .entities(let entities):
            if let page = entities.page {
                // A page `next` fetched numbers on from the rows already listed.
                var keys = entities.keys
                if page.firstRow > 1, let paged = session.listings.paged, paged.listing.kind == entities.kind {
                    keys = paged.listing.keys.followed(by: keys)
                }
                var pictures = entities.pictures?.items
                if page.firstRow > 1, let paged = session.listings.paged, paged.listing.kind == entities.kind {
                    pictures = pictures.map { (session.listings.pictures ?? []) + $0 }
                }
                session.listings.paged = PagedListing(
                    listing: Listing(kind: entities.kind, keys: keys), next: page.next)
                session.listings.last = session.listings.paged?.listing
                session.listings.pictures = pictures
                session.listings.unpaged = nil
            } else {
                session.listings.last = Listing(kind: entities.kind, keys: entities.keys)
                session.listings.pictures = entities.pictures?.items
                session.listings.unpaged = spec.name
            }
        case .count, .removed, .fields, .text, .settings, .table, .properties, .nothing: break
        }
        return outcome
    }

    /// The registry's answer, from the session's `lastCommand` for the same two words as text
    /// (`add <entity>`, `remove <entity> <id>`): what two words name depends on nothing else
    /// when no longer command starts with them, and the registry never changes in a session.
    /// Otherwise resolved every time (a three-word command may start with a two-word one's
    /// words).
    private func resolve(_ words: [Word]) throws(Diagnostic) -> (CommandSpec, [Word]) {
        guard words.count >= 2, !words[0].isQuoted, !words[1].isQuoted else {
            return try session.registry.resolve(words)
        }
        if let last = session.lastCommand, words[0].text == last.words.0, words[1].text == last.words.1,
            words.count == 2 || !last.startsLongerCommand
        {
            return (last.spec, Array(words.dropFirst(2)))
        }
        let (spec, rest) = try session.registry.resolve(words)
        // Kept only when the two words named it (not a one-word command and its parameters).
        if rest.count == words.count - 2 {
            session.lastCommand = QuickCommand(
                words: (words[0].text, words[1].text), spec: spec,
                startsLongerCommand: session.registry.startsLongerCommand(words[0].text, words[1].text))
        }
        return (spec, rest)
    }

    /// `remove` typed at the prompt asks first, as the apps ask (정말 삭제하시겠습니까?);
    /// scripts, `-c` and pipes never ask (the host has no one to ask there).
    private func confirmRemoval(_ invocation: Invocation) throws(Diagnostic) {
        guard session.settings.confirm, session.scriptDepth == 0, invocation.spec.path.first == "remove",
            let reference = invocation.parameters.first, case .references(let kind, let keys) = reference.value,
            let key = keys.first
        else { return }
        let label = session.packs.catalog(for: kind)?.label(of: key, kind: kind).map { " '\($0)'" } ?? ""
        let question =
            session.settings.language.isKorean
            ? "정말 삭제하시겠습니까? (\(kind.korean) \(key.short)\(label)) [y/N] "
            : "remove \(kind.singular) \(key.short)\(label)? [y/N] "
        guard let answer = session.host.confirm(question) else { return }
        if !answer { throw .notConfirmed(invocation.spec.name) }
    }

    func value(toBind outcome: Outcome, _ binding: Binding) throws(Diagnostic) -> VariableValue {
        switch outcome {
        case .entities(let entities): return .entities(entities.kind, Array(entities.keys), isList: entities.isListing)
        case .count(let count): return .count(count)
        case .removed, .fields, .text, .settings, .table, .properties, .nothing:
            let kinds = session.registry.entityKinds.map(\.plural)
            let returnable = kinds.isEmpty ? "a count" : kinds.joined(separator: ", ") + " or a count"
            throw .nothingToBind(
                binding.command.words.map(\.text).joined(separator: " "), returnable: returnable,
                at: binding.command.range)
        }
    }
}
