import ClosetCore
import Foundation

/// A long script read on a second thread, a few batches ahead of the session that runs it: its
/// lines found and joined into statements (as `LineAssembler` joins them), and each one-line
/// statement of a command the session has found read as the quick binder reads one
/// (`QuickBinder.read`, without a binder: nothing that changes is read, as an import's reading
/// thread reads its rows); the session takes what was read only for a statement of the command
/// it found last, as the quick binder binds only those. What is handed over holds no object, only
/// places in the script's text and values: the session makes the statements' strings itself and
/// runs them in order; a statement whose reading it does not take is bound again where it runs,
/// and every other statement is parsed there as before.
///
/// Handing over strings made on this thread cost more than reading them saved: the session's
/// thread retained and freed them, so both cores wrote the same reference counts and the same
/// allocator chunks for every statement.
final class ScriptReadAhead: @unchecked Sendable {
    /// Statements, by the places of their lines in the text and of their read arguments.
    struct Batch: Sendable {
        struct Statement: Sendable {
            let firstLine: Int
            /// Its lines in `Batch.lines`.
            let lines: Range<Int>
            /// Its arguments in `Batch.arguments`, and its range, when it was read.
            let read: (arguments: Range<Int>, range: SourceRange)?
            /// The number of the command it was read for (`follow`).
            let command: Int
        }

        var statements: [Statement] = []
        /// The places of the statements' lines in the script's UTF-8.
        var lines: [Range<Int>] = []
        var arguments: [QuickBinder.PlacedArgument] = []
    }

    /// Scripts shorter than this are read in place: a thread costs more than they take.
    static let smallestScript = 1 << 16
    /// Batches grow from this many statements: the first are read before the session has found
    /// the script's command, and are bound where they run.
    private static let firstBatch = 16
    private static let largestBatch = 1024

    private let text: String
    /// Two batches may wait to be run: a script is held once, however long.
    private let handOver = HandOver<Batch>(waiting: 2)
    /// The shapes of the commands the session has found (made for the reading thread), the one
    /// numbered `n` at `n - 1`, under `handOver`'s lock: each statement is read for the one its
    /// words name.
    private var shapes: [QuickCommand.Shape] = []

    /// The command the session's thread passed on last, and its number (only that thread
    /// reads them): it takes the lock only when its command changes.
    private var followed: QuickCommand?
    private var followedNumber = 0
    /// Each command's number by its two words (0: none). The session finds a command anew
    /// whenever its words change, but two words always name the same command in a session
    /// (`Evaluator.resolve`): statements read for a run's command before another command's
    /// statement amid the run are still read for the run's command after it.
    private var numbers: [String: Int] = [:]

    init(_ text: String) {
        self.text = text
    }

    func start() { handOver.start(name: "closet-script") { [self] in read() } }

    /// The next statements, waiting for them; nil after the last.
    func next() -> Batch? { handOver.next() }

    /// The command the session found last: what was read for it is taken (`statement`), and
    /// statements read from the next batch on may be read for it.
    func follow(_ command: QuickCommand?) {
        guard command !== followed else { return }
        followed = command
        guard let command, command.takesQuickStatements else {
            followedNumber = 0
            return
        }
        let words = command.words.0 + " " + command.words.1
        if let number = numbers[words] {
            followedNumber = number
            return
        }
        // A command not met before: numbered next, its shape passed on at the same place.
        followedNumber = numbers.count + 1
        numbers[words] = followedNumber
        let shape = QuickCommand.Shape(words: command.words, spec: command.spec)
        handOver.shared { shapes.append(shape) }
    }

    /// Statement `index` of `batch`: its source, made from the text here, and its arguments when
    /// they were read for the command passed to `follow` last.
    func statement(_ index: Int, of batch: Batch) -> (
        source: StatementSource, read: QuickBinder.PlacedStatement?
    ) {
        let statement = batch.statements[index]
        let source =
            statement.lines.count == 1
            ? StatementSource(
                line: text.utf8Copy(batch.lines[statement.lines.lowerBound]), firstLine: statement.firstLine)
            : StatementSource(
                lines: batch.lines[statement.lines].map { text.utf8Copy($0) }, firstLine: statement.firstLine)
        // A statement read has a command numbered from 1.
        guard let read = statement.read, statement.command == followedNumber else { return (source, nil) }
        return (source, (batch.arguments[read.arguments], read.range))
    }

    /// Stops the reading and waits for its thread to end.
    func stop() { handOver.stop() }

    // MARK: The reading thread

    private func read() {
        var batch = Batch()
        var size = Self.firstBatch
        var shapes = handOver.shared { self.shapes }
        // The shape that read the statement before (most statements are their run's command's).
        var last = 0
        /// Hands the batch over once there is room (false: stopped), and takes the commands the
        /// session has found so far for the next.
        func handBatch() -> Bool {
            guard handOver.hand(batch, shared: { shapes = self.shapes }) else { return false }
            size = min(size * 2, Self.largestBatch)
            batch = Batch()
            batch.statements.reserveCapacity(size)
            batch.lines.reserveCapacity(size)
            return true
        }
        var going = true
        var text = self.text
        text.withUTF8 { bytes in
            var lineNumber = 0
            // The first line of the statement being joined, and its place in `batch.lines`.
            var pending: (firstLine: Int, start: Int)?
            func add(_ statement: Batch.Statement) {
                batch.statements.append(statement)
                if batch.statements.count >= size { going = handBatch() }
            }
            /// A one-line statement, its arguments read for the command its words name, when
            /// the session has found that command.
            func statement(_ line: Range<Int>, number: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Batch.Statement {
                let place = batch.lines.count - 1
                let first = batch.arguments.count
                let statement = UnsafeBufferPointer(rebasing: bytes[line])
                for offset in shapes.indices {
                    let index = (last + offset) % shapes.count
                    guard let range = QuickBinder.read(statement, shape: shapes[index], into: &batch.arguments) else {
                        continue
                    }
                    last = index
                    return Batch.Statement(
                        firstLine: number, lines: place..<place + 1, read: (first..<batch.arguments.count, range),
                        command: index + 1)
                }
                return Batch.Statement(firstLine: number, lines: place..<place + 1, read: nil, command: 0)
            }
            String.forEachScriptLine(in: bytes) { line in
                lineNumber += 1
                let continues = LineAssembler.continues(utf8: UnsafeBufferPointer(rebasing: bytes[line]))
                batch.lines.append(line)
                if let joined = pending {
                    guard !continues else { return true }
                    pending = nil
                    add(
                        Batch.Statement(
                            firstLine: joined.firstLine, lines: joined.start..<batch.lines.count, read: nil, command: 0)
                    )
                } else if continues {
                    pending = (lineNumber, batch.lines.count - 1)
                } else {
                    add(statement(line, number: lineNumber, in: bytes))
                }
                return going
            }
            if going, let joined = pending {
                add(
                    Batch.Statement(
                        firstLine: joined.firstLine, lines: joined.start..<batch.lines.count, read: nil, command: 0))
            }
        }
        if going, !batch.statements.isEmpty { _ = handBatch() }
    }
}
