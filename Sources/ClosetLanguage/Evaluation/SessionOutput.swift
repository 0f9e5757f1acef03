import ClosetCore
import Foundation

/// A session's output: results in the chosen format, the echo of statements, diagnostics and
/// timings, all through the host; and where they go (`.output`, `.once`) and what is held
/// until its statement or file is committed.
package final class SessionOutput {
    unowned let session: Session
    /// `.once <file>`: the next statement's results go there.
    var once: String?
    /// The file the running statement's results go to (`.once`, else `.output`).
    var file: String?
    /// The `.output`/`.once` file a write to failed: the rest of that statement's results are
    /// not written to it (a gap would follow). Cleared when a file is named again.
    var failedFile: String?
    /// Output written since the last commit while results are held, in order.
    var held: [(text: String, channel: OutputChannel, file: String?)] = []
    /// Bytes in `held`. Past `maximumHeldBytes` the output of a huge file is written as it
    /// comes (memory stays bounded; its commit is still reported if it fails).
    var heldBytes = 0
    /// How many times held output was written out: a script's mark into `held` is only good
    /// while this has not changed.
    var releases = 0
    package static let maximumHeldBytes = 64 << 20

    init(session: Session) { self.session = session }

    private var settings: Session.Settings { session.settings }
    private var host: SessionHost { session.host }

    package func print(_ outcome: Outcome) {
        if settings.discardResults { return }
        let outcome = Redaction.apply(settings.redacted, to: outcome)
        switch outcome {
        case .nothing:
            return
        case .text(let text):
            // At a terminal, fitted to its width (help is read there).
            let fitted = settings.table.maxWidth.map { TextWrapper.wrap(text, toCells: $0) } ?? text
            write(fitted.hasSuffix("\n") ? fitted : fitted + "\n")
            return
        case .settings(let pairs) where settings.format != .json:
            if pairs.count == 1 { return write(TerminalText.visible(pairs[0].value) + "\n") }
            let width = pairs.map { TextWidth.of($0.name) }.max() ?? 0
            write(
                pairs.map {
                    String(repeating: " ", count: width - TextWidth.of($0.name)) + $0.name + ": "
                        + TerminalText.visible($0.value) + "\n"
                }.joined())
            return
        case .entities, .count, .removed, .fields, .table, .properties, .settings:
            break
        }
        let format = settings.format
        switch format {
        case .json:
            // Indented for people at a terminal; one value a line for tools (a pipe, a file),
            // entities written as they are made.
            let pretty = settings.terminalWidth != nil && file == nil
            if !pretty, case .entities(let entities) = outcome {
                JSONRenderer.write(entities) { write(utf8: $0) }
            } else if let text = JSONRenderer.render(outcome) {
                write(pretty ? JSONText.pretty(text) : text)
            }
        case .table, .csv, .line, .box, .markdown:
            if format.isForPeople, let detail = DetailRenderer.detail(of: outcome) {
                var table = settings.table
                table.color = settings.color
                table.headers = settings.headers
                if format == .box { table.boxDrawing = true }
                let renderer = DetailRenderer(
                    table: table, markdown: format == .markdown, korean: settings.language.isKorean)
                write(renderer.render(detail))
                return printPictures(of: outcome)
            }
            if format == .csv, case .entities(let entities) = outcome {
                // Each row written as it is made, a megabyte at a time (the export's own writer,
                // the same bytes): a listing is never a grid of cells.
                var writer = ExportWriter(format: .csv, columns: entities.kind.dataColumns)
                if settings.headers { writer.begin() }
                entities.forEachRecord(parts: .data) { record in
                    writer.add(data: record.data)
                    if writer.isFull { write(utf8: writer.take()) }
                }
                write(utf8: writer.take())
                return printPictures(of: outcome)
            }
            if format == .line, case .entities(let entities) = outcome {
                // For tools, as csv: each record written as it is made, no grid of cells.
                var writer = LineRenderer.Writer(columns: entities.kind.dataColumns)
                var out: [UInt8] = []
                entities.forEachRecord(parts: .data) { record in
                    writer.add(record.data.map { RecordGrid.cell($0, forPeople: false) }, into: &out)
                    if out.count >= 1 << 20 {
                        write(utf8: out)
                        out.removeAll(keepingCapacity: true)
                    }
                }
                write(utf8: out)
                return
            }
            var table = settings.table
            table.color = settings.color
            table.headers = settings.headers
            if format == .box { table.boxDrawing = true }
            if format == .table || format == .box, case .entities(let entities) = outcome, entities.isListing,
                case .each = entities.source,
                TableListing(entities: entities, korean: settings.language.isKorean, renderer: table).write({
                    write($0)
                })
            {
                // A listing whose records are made a row at a time is drawn so, without a grid.
                return printPictures(of: outcome)
            }
            guard let grid = RecordGrid.grid(for: outcome, format: format, language: settings.language) else { return }
            let text: String
            switch format {
            case .table, .box:
                text = table.render(grid)
            case .markdown: text = MarkdownRenderer.render(grid, headers: settings.headers)
            case .csv: text = CSVRenderer.render(grid, headers: settings.headers)
            case .line: text = LineRenderer.render(grid)
            case .json: text = ""
            }
            write(text)
            printPictures(of: outcome)
        }
    }

    /// How pictures are shown now: `auto` is what the terminal shows, and nothing while
    /// results go to a file (`.output`, `.once`).
    package var shownPictures: PictureMode {
        guard settings.pictures == .auto else { return settings.pictures }
        return file == nil ? settings.terminalPictures : .off
    }

    /// A result's pictures under its text, in tables only (JSON, csv, line and Markdown stay
    /// text for tools and documents).
    func printPictures(of outcome: Outcome) {
        guard let pictures = outcome.pictures, settings.format == .table || settings.format == .box
        else { return }
        let mode = shownPictures
        guard mode != .off, mode != .auto else { return }
        let width = settings.table.maxWidth ?? 80
        let size = settings.pictureSize.columns(within: width)
        // Thumbnails run across the terminal, each a quarter of the size set.
        let thumbnails = pictures.arrangement == .thumbnails
        var renderer = PictureRenderer(
            mode: mode, columns: thumbnails ? width : size, rows: max(4, (settings.terminalRows ?? 24) - 2),
            cellPixels: settings.cellPixels ?? (10, 20))
        renderer.thumbnailSide = max(4, size / 4)
        var firstNumber = 1
        if case .entities(let entities) = outcome { firstNumber = entities.page?.firstRow ?? 1 }
        write(
            renderer.render(
                pictures.items.lazy.map { [session] in $0(session) }, pictures.arrangement, firstNumber: firstNumber,
                sections: pictures.sections, korean: settings.language.isKorean,
                stop: { [host] in host.interruptRequested() }))
    }

    /// The app's success text, for people only: JSON, csv and line stay data.
    func printNotice() {
        guard let notice = session.notice, settings.format.isForPeople, !settings.discardResults else { return }
        let text = RecordGrid.cell(notice, forPeople: true, korean: settings.language.isKorean)
        if !text.isEmpty { write(TerminalText.visible(text) + "\n") }
    }

    func echo(_ source: StatementSource) {
        guard settings.echo else { return }
        var text = ""
        for (index, line) in source.lines.enumerated() {
            text +=
                (index == 0 ? Prompt.primary : Prompt.continuation)
                + TerminalText.visible(session.registry.masked(line), keepingTabs: true) + "\n"
        }
        write(text)
    }

    package func report(_ error: Error, source: StatementSource?, origin: String?) {
        let diagnostic: Diagnostic
        switch error {
        case is AlreadyReported: return
        case let known as Diagnostic: diagnostic = known
        case let message as any LocalizedMessage:
            diagnostic = .appMessage(
                message.message, id: message.diagnosticID, korean: message.koreanMessage, at: nil)
        default: diagnostic = .unexpected(error)
        }
        // The statement is listed under its error with its secrets masked.
        let registry = session.registry
        write(
            DiagnosticRenderer.render(
                diagnostic, source: source, origin: origin, color: settings.color, mask: { registry.masked($0) },
                warning: session.reportsWarnings, korean: settings.language.isKorean),
            to: .standardError)
    }

    /// After the result: on standard output beside tables and lines (as sqlite3 does), on
    /// standard error in JSON and CSV so the data stays parseable.
    func printTime(since start: Double) {
        let channel: OutputChannel =
            settings.format == .json || settings.format == .csv ? .standardError : .standardOutput
        if session.isDeterministic {
            write("time: (hidden by --deterministic)\n", to: channel)
        } else {
            let elapsed = host.monotonicSeconds() - start
            write("time: \(String(format: "%.3f", elapsed * 1000)) ms\n", to: channel)
        }
    }

    /// Output, held while `holdResultsUntilCommit` asks for it.
    func write(_ text: String, to channel: OutputChannel = .standardOutput) {
        // Results go where `.output`/`.once` said when they were made; errors stay on stderr.
        let file = channel == .standardOutput ? file : nil
        if settings.holdResultsUntilCommit, mustHold, heldBytes + text.utf8.count <= Self.maximumHeldBytes {
            held.append((text, channel, file))
            heldBytes += text.utf8.count
        } else {
            if !held.isEmpty { releaseHeld() }  // past the cap: keep the order
            emit(text, to: channel, file: file)
        }
    }

    /// `write` for a writer's UTF-8: handed to the host as it is when it goes out now (to
    /// standard output, nothing held), else made text and written so.
    func write(utf8 bytes: [UInt8], to channel: OutputChannel = .standardOutput) {
        let file = channel == .standardOutput ? file : nil
        if file == nil, held.isEmpty, !(settings.holdResultsUntilCommit && mustHold) {
            host.write(utf8: bytes, to: channel)
        } else {
            write(String(decoding: bytes, as: UTF8.self), to: channel)
        }
    }

    /// Whether output now waits for a commit: once something is held, while the statement (or
    /// the script it is in, one transaction) has written, or inside a script, whose later
    /// statements may write or be undone. A statement alone that has written nothing (a listing
    /// in `-c` or at the prompt) reports nothing a commit could undo: its output goes out as it
    /// is made, so a listing of a million rows is never held whole.
    private var mustHold: Bool {
        !held.isEmpty || session.scriptDepth > 0 || session.store.tables.hasPendingChanges
    }

    private func emit(_ text: String, to channel: OutputChannel, file: String?) {
        guard let file else { return host.write(text, to: channel) }
        if failedFile == file { return }
        do {
            try host.appendOutput(text, toFile: file, truncating: false)
        } catch {
            // A full disk, or the file went away under `.output`: said once, straight to stderr
            // (this may run while held output is being released), counted as a failure, and
            // results go to standard output again from the next statement. What could not be
            // written is not sent elsewhere too: part of it may be in the file.
            if settings.output == file { session.settings.output = nil }
            failedFile = file
            session.tally.failures += 1
            let diagnostic = error as? Diagnostic ?? .cannotWrite(file, because: "\(error)")
            host.write(
                DiagnosticRenderer.render(diagnostic, source: nil, origin: nil, color: settings.color),
                to: .standardError)
        }
    }

    /// Writes what was held, in order, once what it reports is committed (or failed).
    func releaseHeld() {
        for (text, channel, file) in held { emit(text, to: channel, file: file) }
        held.removeAll()
        heldBytes = 0
        releases += 1
    }

    /// At the end of a session: what is still held was never committed, so its results are
    /// dropped; its diagnostics are written.
    package func finish() {
        dropHeldResults()
        releaseHeld()
    }

    /// A commit failed: the results it would have made true are not shown; the diagnostics
    /// (true whatever the commit did) still are.
    func dropHeldResults() {
        held.removeAll { $0.channel == .standardOutput }
        heldBytes = held.reduce(0) { $0 + $1.text.utf8.count }
    }

    /// Reports a problem found outside any statement (input that could not be read) and
    /// counts it as a failed statement.
    package func fail(_ diagnostic: Diagnostic, source: StatementSource?, origin: String?) {
        report(diagnostic, source: source, origin: origin)
        session.tally.failures += 1
    }
}
