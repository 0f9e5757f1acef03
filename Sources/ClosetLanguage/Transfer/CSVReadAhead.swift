import ClosetCore
import Foundation

/// A CSV file's records read on a second thread, a piece ahead of the rows being imported: the
/// reading (UTF-8, quoting, each record's width) is off the thread that runs the rows' `add`s,
/// and the file is read once. A piece's records come in batches (2,048 records at most, so the
/// first rows are visited while the rest of the first piece is read), each holding its piece,
/// at most four batches waiting: an import holds a few pieces of its file however long it is.
///
/// Only whole-width records are handed over. The file's verdict comes after its last batch: the
/// first quoting or UTF-8 problem met (the rest of the file is not read), else the first record
/// of the wrong width (the rows after it are not handed over, but the file is read to its end
/// for a quoting problem, which comes first), else none. With `checkFirst` the whole file is
/// read for its verdict before the first batch is handed over: rows are then visited only in a
/// file with no problem.
///
/// With a `binding`, each record handed over comes with its row's `add` arguments read on the
/// reading thread too (`ImportedRows.RecordBinding`): reading them needs nothing that changes,
/// and the thread that runs the adds is the import's bottleneck.
final class CSVReadAhead: @unchecked Sendable {
    /// Whole-width records of a piece: `width` fields each, places in `bytes`; with a binding,
    /// each one's arguments (their places in `read`) and the length of the statement they make
    /// (nil: bound as the row is visited).
    struct Batch {
        let bytes: [UInt8]
        var fields: [CSVReader.Field] = []
        var lines: [Int] = []
        var read: [ReadArgument] = []
        var records: [(arguments: Range<Int>, length: Int)?] = []
    }

    private let cursor: CSVFileCursor
    private let width: Int
    private let checkFirst: Bool
    /// Nil when the file is read in place: reading arguments ahead helps only on another
    /// thread, and a piece's records all read at once would take memory in proportion to them.
    private var binding: TransferFiles.ImportedRows.RecordBinding?
    private static let batchRecords = 2048
    /// Four batches may wait to be visited.
    private let handOver = HandOver<Batch>(waiting: 4)

    // Shared with the reading thread, under `handOver`'s lock.
    private var problem: ImportFileProblem?
    /// About how many records the file has, from its size and its first batch's records, a
    /// sixteenth over: room made a few rows short copies every row when the last ones come.
    private var estimate: Int?

    /// `cursor` is past the header; `width` is the header's.
    init(
        _ cursor: CSVFileCursor, width: Int, checkFirst: Bool, binding: TransferFiles.ImportedRows.RecordBinding?
    ) {
        self.cursor = cursor
        self.width = width
        self.checkFirst = checkFirst
        self.binding = binding
    }

    /// Starts reading: on a thread of its own unless the first piece is the whole file (its
    /// batches are then all made at once, none waiting for room).
    func start(inPlace: Bool) {
        if inPlace {
            binding = nil
            handOver.readInPlace(read)
        } else {
            handOver.start(name: "closet-csv") { [self] in read() }
        }
    }

    /// The next batch, waiting for it; nil after the last.
    func next() -> Batch? { handOver.next() }

    /// The file's problem, once `next` has given nil.
    var verdict: ImportFileProblem? { handOver.shared { problem } }

    /// About how many records the file has (known once the first batch is handed over).
    var estimatedCount: Int? { handOver.shared { estimate } }

    /// Stops the reading and waits for its thread to end: the file is not read after this.
    func stop() { handOver.stop() }

    // MARK: The reading thread

    private func read() {
        var problem: ImportFileProblem?
        do throws(ImportFileProblem) {
            if checkFirst {
                try readRecords(binding: nil) { _ in true }
                try cursor.rewind()
                var header: [CSVReader.Field] = []
                _ = try cursor.next(&header)
            }
            try readRecords(binding: binding, hand: offer)
        } catch {
            problem = error
        }
        handOver.shared { self.problem = problem }
    }

    /// Reads every record, each piece's whole-width ones given to `hand` until a record of the
    /// wrong width is met, their arguments read by `binding`; throws the file's problem at its
    /// end. Stops when `hand` returns false.
    private func readRecords(
        binding: TransferFiles.ImportedRows.RecordBinding?, hand: (Batch) -> Bool
    ) throws(ImportFileProblem) {
        var wrongWidth: ImportFileProblem?
        var handing = true
        var fields: [CSVReader.Field] = []
        var batch = Batch(bytes: [])
        // The records so far handed over with the piece they lie in, which the next piece's read
        // then leaves to them (the file's buffer is copied when shared); false: stop reading.
        func handBatch() -> Bool {
            guard handing, !batch.lines.isEmpty else { return true }
            defer {
                batch.fields.removeAll(keepingCapacity: true)
                batch.lines.removeAll(keepingCapacity: true)
            }
            let bytes = cursor.bytes
            var read: [ReadArgument] = []
            var records: [(arguments: Range<Int>, length: Int)?] = []
            if let binding {
                // The whole batch at once: the piece's array is shared with the thread visiting
                // rows, and retaining it per record made the two threads fight over its count.
                records.reserveCapacity(batch.lines.count)
                read.reserveCapacity(batch.fields.count)
                bytes.withUnsafeBufferPointer { file in
                    var record: [CSVReader.Field] = []
                    record.reserveCapacity(width)
                    for start in stride(from: 0, to: batch.fields.count, by: width) {
                        record.removeAll(keepingCapacity: true)
                        record.append(contentsOf: batch.fields[start..<start + width])
                        let first = read.count
                        records.append(binding(file, record, &read).map { (first..<read.count, $0) })
                    }
                }
            }
            return hand(
                Batch(bytes: bytes, fields: batch.fields, lines: batch.lines, read: read, records: records))
        }
        while true {
            let step = try cursor.step(&fields)
            if case .record(let line, let count) = step {
                if count != width {
                    if wrongWidth == nil {
                        wrongWidth = .syntax(message: "\(count) fields where the header has \(width)", line: line)
                    }
                    handing = false
                } else if handing {
                    batch.fields.append(contentsOf: fields)
                    batch.lines.append(line)
                    if batch.lines.count == Self.batchRecords, !handBatch() { return }
                }
                continue
            }
            guard handBatch() else { return }
            if case .fileEnd = step { break }
            try cursor.readNextPiece()
        }
        if let wrongWidth { throw wrongWidth }
    }

    /// Hands `batch` over once there is room; false when the rows stopped being read.
    private func offer(_ batch: Batch) -> Bool {
        handOver.hand(batch) {
            guard estimate == nil else { return }
            let records = batch.lines.count
            let bytes = (batch.fields.last?.end ?? 0) - (batch.fields.first?.start ?? 0)
            estimate =
                cursor.fileSize.map { size in
                    bytes > 0 ? max(records, Int(Double(size) / Double(bytes) * Double(records) * 17 / 16)) : records
                } ?? records
        }
    }
}
