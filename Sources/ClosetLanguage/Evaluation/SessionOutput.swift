import ClosetCore
import Foundation

/// Output: results in the chosen format, the echo of statements, diagnostics and timings,
/// all through the host.
extension Session {
    public func print(_ outcome: Outcome) {
        if settings.discardResults { return }
        switch outcome {
        case .nothing:
            return
        case .text(let text):
            // At a terminal, fitted to its width (help is read there).
            let fitted = settings.table.maxWidth.map { TextWrapper.wrap(text, toCells: $0) } ?? text
            writeOutput(fitted.hasSuffix("\n") ? fitted : fitted + "\n")
            return
        case .settings(let pairs) where settings.format != .json:
            if pairs.count == 1 { return writeOutput(TerminalText.visible(pairs[0].value) + "\n") }
            let width = pairs.map { TextWidth.of($0.name) }.max() ?? 0
            writeOutput(
                pairs.map {
                    String(repeating: " ", count: width - TextWidth.of($0.name)) + $0.name + ": "
                        + TerminalText.visible($0.value) + "\n"
                }.joined())
            return
        case .entities, .count, .removed, .fields, .table, .settings:
            break
        }
        let format = settings.format
        switch format {
        case .json:
            if let text = JSONRenderer.render(outcome) { writeOutput(text) }
        case .table, .csv, .line, .box, .markdown:
            if format.isForPeople, let detail = DetailRenderer.detail(of: outcome) {
                var table = settings.table
                table.color = settings.color
                table.headers = settings.headers
                if format == .box { table.boxDrawing = true }
                let renderer = DetailRenderer(
                    table: table, markdown: format == .markdown, korean: settings.language.isKorean)
                writeOutput(renderer.render(detail))
                return printPictures(of: outcome)
            }
            guard let grid = RecordGrid.grid(for: outcome, format: format, language: settings.language) else { return }
            let text: String
            switch format {
            case .table, .box:
                var renderer = settings.table
                renderer.color = settings.color
                renderer.headers = settings.headers
                if format == .box { renderer.boxDrawing = true }
                text = renderer.render(grid)
            case .markdown: text = MarkdownRenderer.render(grid, headers: settings.headers)
            case .csv: text = CSVRenderer.render(grid, headers: settings.headers)
            case .line: text = LineRenderer.render(grid)
            case .json: text = ""
            }
            writeOutput(text)
            printPictures(of: outcome)
        }
    }

    /// How pictures are shown now: `auto` is what the terminal shows, and nothing while
    /// results go to a file (`.output`, `.once`).
    package var shownPictures: PictureMode {
        guard settings.pictures == .auto else { return settings.pictures }
        return outputFile == nil ? settings.terminalPictures : .off
    }

    /// A result's pictures under its text, in tables only (JSON, csv, line and Markdown stay
    /// text for tools and documents).
    func printPictures(of outcome: Outcome) {
        guard let pictures = outcome.pictures, settings.format == .table || settings.format == .box
        else { return }
        let mode = shownPictures
        guard mode != .off, mode != .auto else { return }
        let width = settings.table.maxWidth ?? 80
        let renderer = PictureRenderer(
            mode: mode, columns: settings.pictureSize.columns(within: width),
            rows: max(4, (settings.terminalRows ?? 24) - 2), cellPixels: settings.cellPixels ?? (10, 20))
        writeOutput(
            renderer.render(
                pictures.items.lazy.map { $0(self) }, pictures.arrangement, stop: { host.interruptRequested() }))
    }

    /// The app's success text, for people only: JSON, csv and line stay data.
    func printNotice() {
        guard let notice, settings.format.isForPeople, !settings.discardResults else { return }
        let text = RecordGrid.cell(notice, forPeople: true, korean: settings.language.isKorean)
        if !text.isEmpty { writeOutput(TerminalText.visible(text) + "\n") }
    }

    func echo(_ source: StatementSource) {
        guard settings.echo else { return }
        var text = ""
        for (index, line) in source.lines.enumerated() {
            text +=
                (index == 0 ? Prompt.primary : Prompt.continuation)
                + TerminalText.visible(registry.masked(line), keepingTabs: true) + "\n"
        }
        writeOutput(text)
    }

    package func report(_ error: Error, source: StatementSource?, origin: String?) {
        let diagnostic: Diagnostic
        switch error {
        case is AlreadyReported: return
        case let known as Diagnostic: diagnostic = known
        case let message as any LocalizedMessage: diagnostic = .appMessage(message.message, at: nil)
        default: diagnostic = .unexpected(error)
        }
        // The statement is listed under its error with its secrets masked.
        let registry = registry
        writeOutput(
            DiagnosticRenderer.render(
                diagnostic, source: source, origin: origin, color: settings.color, mask: { registry.masked($0) },
                warning: reportsWarnings),
            to: .standardError)
    }

    /// After the result: on standard output beside tables and lines (as sqlite3 does), on
    /// standard error in JSON and CSV so the data stays parseable.
    func printTime(since start: Double) {
        let channel: OutputChannel =
            settings.format == .json || settings.format == .csv ? .standardError : .standardOutput
        if isDeterministic {
            writeOutput("time: (hidden by --deterministic)\n", to: channel)
        } else {
            let elapsed = host.monotonicSeconds() - start
            writeOutput("time: \(String(format: "%.3f", elapsed * 1000)) ms\n", to: channel)
        }
    }

    /// Output, held while `holdResultsUntilCommit` asks for it.
    func writeOutput(_ text: String, to channel: OutputChannel = .standardOutput) {
        // Results go where `.output`/`.once` said when they were made; errors stay on stderr.
        let file = channel == .standardOutput ? outputFile : nil
        if settings.holdResultsUntilCommit, heldBytes + text.utf8.count <= Self.maximumHeldBytes {
            heldOutput.append((text, channel, file))
            heldBytes += text.utf8.count
        } else {
            if !heldOutput.isEmpty { releaseHeldOutput() }  // past the cap: keep the order
            emit(text, to: channel, file: file)
        }
    }

    private func emit(_ text: String, to channel: OutputChannel, file: String?) {
        guard let file else { return host.write(text, to: channel) }
        if failedOutputFile == file { return }
        do {
            try host.appendOutput(text, toFile: file, truncating: false)
        } catch {
            // A full disk, or the file went away under `.output`: said once, straight to stderr
            // (this may run while held output is being released), counted as a failure, and
            // results go to standard output again from the next statement. What could not be
            // written is not sent elsewhere too: part of it may be in the file.
            if settings.output == file { settings.output = nil }
            failedOutputFile = file
            failureCount += 1
            let diagnostic = error as? Diagnostic ?? .cannotWrite(file, because: "\(error)")
            host.write(
                DiagnosticRenderer.render(diagnostic, source: nil, origin: nil, color: settings.color),
                to: .standardError)
        }
    }

    /// Writes what was held, in order, once what it reports is committed (or failed).
    func releaseHeldOutput() {
        for (text, channel, file) in heldOutput { emit(text, to: channel, file: file) }
        heldOutput.removeAll()
        heldBytes = 0
        heldReleases += 1
    }

    /// At the end of a session: what is still held was never committed, so its results are
    /// dropped; its diagnostics are written.
    package func finishOutput() {
        dropHeldResults()
        releaseHeldOutput()
    }

    /// A commit failed: the results it would have made true are not shown; the diagnostics
    /// (true whatever the commit did) still are.
    func dropHeldResults() {
        heldOutput.removeAll { $0.channel == .standardOutput }
        heldBytes = heldOutput.reduce(0) { $0 + $1.text.utf8.count }
    }

    /// Reports a problem found outside any statement (input that could not be read) and
    /// counts it as a failed statement.
    package func fail(_ diagnostic: Diagnostic, source: StatementSource?, origin: String?) {
        report(diagnostic, source: source, origin: origin)
        failureCount += 1
    }
}
