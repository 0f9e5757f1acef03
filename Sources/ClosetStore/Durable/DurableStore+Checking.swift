import ClosetCore
import ClosetTables
import Foundation

/// `.check` and `closet check`: everything the store holds read and checked, as sqlite3's
/// `PRAGMA integrity_check` (opening checks the headers, the block checksums and the journal;
/// a statement checks the snapshot blocks it reads; this reads the rest).
extension DurableStore {
    public func check() -> StoreCheck {
        var result = StoreCheck()
        if let blocks = view.blocks {
            result.checked.append(("snapshot", "\(view.snapshotLength) bytes, \(blocks.blockCount) blocks"))
            let damaged = blocks.damagedBlocks()
            // Rows over damage are not read further (counting them, or the pictures they
            // name, would read the damaged blocks): that is for 'closet recover'.
            guard damaged.isEmpty else {
                result.problems.append(damagedBlocksMessage(blocks, damaged))
                return result
            }
            result.problems += tables.all.compactMap { $0.checkSnapshotRows() }
        } else if view.snapshotLink != nil {
            result.checked.append(("snapshot", "\(view.snapshotLength) bytes, read whole when opened"))
        }
        // A temporary a killed compaction or a crash left is no damage (the store never reads
        // it), but it holds disk until the next writer removes it: named, with its size.
        for name in StoreFolder.temporaryNames.sorted() {
            var info = stat()
            guard stat(path + "/" + name, &info) == 0 else { continue }
            result.checked.append(
                (
                    "leftover",
                    "\(name), \(info.st_size) bytes, left by a process that was stopped; the next writer removes it"
                ))
        }
        if markerIsOld, !legacyFiles {
            // The state an upgrade cut before its last step leaves (and a marker's digit
            // changed reads the same): nothing is lost, and it is said.
            result.checked.append(
                (
                    "marker",
                    "names an older format than its files (an upgrade stopped before its marker); the next writer writes it"
                ))
        }
        let records = "\(view.transactions) transaction\(view.transactions == 1 ? "" : "s")"
        if let skipped = view.skippedJournalGeneration {
            // Not "0 bytes": the file is there, and why it is not read is said.
            let size = view.journal.map { "\($0.size) bytes" } ?? "a journal"
            result.checked.append(
                (
                    "journal",
                    "\(size) of generation \(skipped), already inside the snapshot (a compaction was stopped between its renames); the next writer starts a new one"
                ))
        } else {
            result.checked.append(("journal", "\(view.validLength) bytes, \(records)"))
        }
        result.problems += commitPointProblems(&result)
        if let torn = view.tornTail {
            result.checked.append(("unfinished", "a commit begun at byte \(torn.at) never finished (\(torn.reason))"))
        }
        // Counting places the journal's changes over the snapshot's rows: not over damage.
        guard result.problems.isEmpty else { return result }
        // Rows the packs stored: inline pictures are counted as pictures.
        let inline = inlineBlobs
        let rows = tables.all.reduce(0) { $0 + $1.count } - (inline?.count ?? 0)
        result.checked.append(("rows", "\(rows)"))
        // Pictures: each referred to is there, and its bytes match the checksum its name holds.
        let referenced = tables.referencedBlobs
        let present = Set(files.names)
        // Pictures `closet recover` said it could not keep: losses already told, not damage.
        let lost = lostAtRecovery()
        var stillLost = 0
        for name in referenced.sorted() {
            let inlineBytes = inline?[name]?.bytes
            guard inlineBytes != nil || present.contains(name) else {
                if lost.contains(name) {
                    stillLost += 1
                } else {
                    result.problems.append("picture \(name) is missing")
                }
                continue
            }
            guard let bytes = inlineBytes ?? files.read(named: name), ImageInfo.isIntact(bytes, blobName: name) else {
                result.problems.append("picture \(name) is damaged (its bytes do not match their checksum)")
                continue
            }
        }
        if stillLost > 0 {
            result.checked.append(
                (
                    "lost",
                    "\(stillLost) picture\(stillLost == 1 ? "" : "s") lost before 'closet recover' made this store (listed in \(StoreFolder.lostPicturesName)); their rows are kept without them"
                ))
        }
        let leftovers = present.subtracting(referenced).count
        let pictures =
            "\(referenced.count)"
            + (leftovers > 0 ? ", and \(leftovers) no row refers to (the next writer removes them)" : "")
        result.checked.append(("pictures", pictures))
        return result
    }

    /// A commit point that fails its checksum: the other one, a commit older, is what opening
    /// used, so without this `closet check` would say `ok` over it (and a second such damage
    /// would lose a commit). One whose write a crash cut (the slot of the next commit, whose
    /// record is whole) is said as unfinished; any other is a problem. The next writer rewrites it.
    func commitPointProblems(_ result: inout StoreCheck) -> [String] {
        guard view.journalFormat == StoreFormat.journalFormat, view.skippedJournalGeneration == nil,
            let bytes = try? POSIXFile.readAll(path + "/journal"), bytes.count >= StoreFormat.recordsStart,
            let used = StoreFormat.readCommitPoint(bytes, generation: view.generation)
        else { return [] }
        var problems: [String] = []
        for slot in StoreFormat.failingCommitPoints(bytes, generation: view.generation) {
            let start = StoreFormat.journalHeaderSize + slot * StoreFormat.commitPointSize
            let bytesText = "bytes \(start)-\(start + StoreFormat.commitPointSize - 1)"
            if slot == (used.transactions + 1) % 2, view.transactions > used.transactions {
                result.checked.append(
                    (
                        "unfinished",
                        "the commit point of transaction \(used.transactions + 1) (\(bytesText)) was cut while it was written; its record is whole and is read, and the next writer rewrites the point"
                    ))
            } else {
                problems.append(
                    "commit point \(slot == 0 ? "A" : "B") of its journal (\(bytesText)) fails its checksum; the other (\(used.transactions) transactions) is used, and the next writer rewrites it"
                )
            }
        }
        return problems
    }

    /// The pictures `closet recover` listed as lost when it made this store.
    func lostAtRecovery() -> Set<String> {
        guard let bytes = try? POSIXFile.readAll(path + "/" + StoreFolder.lostPicturesName) else { return [] }
        var names: Set<String> = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            if let name = line.split(separator: " ").first { names.insert(String(name)) }
        }
        return names
    }

    /// Before a new snapshot copies the rows: a block that fails must not be laundered into a
    /// file whose checksums pass.
    func checkBlocksBeforeCopying() throws(POSIXFile.Failure) {
        guard let blocks = view.blocks else { return }
        let damaged = blocks.damagedBlocks()
        guard damaged.isEmpty else {
            throw POSIXFile.Failure(description: self.damaged(damagedBlocksMessage(blocks, damaged)).description)
        }
    }
}
