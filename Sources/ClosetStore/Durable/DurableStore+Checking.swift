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
                result.problems.append(StoreReading.damagedBlocksMessage(blocks, damaged))
                return result
            }
            if let deltaBlocks = view.deltaBlocks {
                result.checked.append(
                    (
                        "delta",
                        "\(view.deltaLength) bytes, \(deltaBlocks.blockCount) blocks: the rows changed since the snapshot"
                    ))
                let damaged = deltaBlocks.damagedBlocks()
                guard damaged.isEmpty else {
                    result.problems.append(
                        StoreReading.damagedBlocksMessage(deltaBlocks, damaged, file: DeltaFile.name))
                    return result
                }
            }
            result.problems += tables.all.compactMap { $0.checkSnapshotRows() }
        } else if view.snapshotLink != nil {
            result.checked.append(("snapshot", "\(view.snapshotLength) bytes, read whole when opened"))
        }
        if let stale = view.staleDelta {
            result.checked.append(
                (
                    "delta",
                    "generation \(stale), already inside the snapshot (a compaction was stopped before removing it); the next writer removes it"
                ))
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
        if markerIsOld, !view.legacyFiles {
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
            var inside = ""
            if view.transactionsInsideSnapshot > 0 {
                let count = view.transactionsInsideSnapshot
                inside =
                    ", the first \(count) already inside the snapshot (a compaction in the background was stopped between its renames)"
            }
            result.checked.append(("journal", "\(view.validLength) bytes, \(records)\(inside)"))
        }
        result.problems += view.commitPointProblems(journal: path + "/journal", &result)
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
        let lost = StoreFolder.lostPictures(path)
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
}
