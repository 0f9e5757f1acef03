import ClosetCore
import TestSupport
import Testing

@testable import ClosetTables

/// The key index of decoded rows against a dictionary doing the same: files, finds, moves and
/// forgets keys alike however they collide, through growth and removals that shift entries back.
@Suite struct SlotIndexTests {
    struct Item: Codable, Sendable, Identifiable, Equatable {
        var id: Int
        var text: String
    }

    /// Hashes crowded into a few homes (and equal for many keys), so probing runs wrap around
    /// the table's end and removals shift long runs.
    @Test func crowdedHashesFindWhatADictionaryFinds() {
        var random = SeededRandom(seed: 47)
        for crowding in [UInt32(1), 3, 0xFFFF_FFFF] {
            var index = SlotIndex()
            var model: [Int: Int] = [:]
            var slotKeys: [Int] = []  // the key each slot was given
            func hash(_ key: Int) -> UInt32 {
                crowding == 0xFFFF_FFFF ? SlotIndex.hash(key) : UInt32(key % 5) * crowding + 0xFFFF_FFF0
            }
            func find(_ key: Int) -> (position: Int, slot: Int?) {
                index.find(hash(key)) { slotKeys[$0] == key }
            }
            for step in 0..<6_000 {
                let key = Int.random(in: 0..<400, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0, 1:
                    index.makeRoom()
                    let (position, found) = find(key)
                    #expect(found == model[key])
                    if found == nil {
                        index.insert(hash(key), slot: slotKeys.count, at: position)
                        model[key] = slotKeys.count
                        slotKeys.append(key)
                    }
                case 2:
                    let (position, found) = find(key)
                    #expect(found == model[key])
                    if found != nil {
                        index.remove(at: position)
                        model[key] = nil
                    }
                default:
                    #expect(find(key).slot == model[key])
                }
                if step % 500 == 0 {
                    for key in 0..<400 { #expect(find(key).slot == model[key], "step \(step), key \(key)") }
                }
                #expect(index.count == model.count)
            }
            for key in 0..<400 { #expect(find(key).slot == model[key]) }
        }
    }

    /// Decoded rows placed, replaced, removed, put back and cleared as undo does, against a
    /// dictionary: every key finds its row, and the index is rebuilt alike after compaction.
    @Test func slotRowsKeepTheirKeysThroughEveryChange() {
        var random = SeededRandom(seed: 4_700)
        var rows = SlotRows<CodableRows<Item>>()
        var model: [Int: String] = [:]
        var undo: [(key: Int, slot: Int, previous: Item?)] = []
        for step in 0..<20_000 {
            let key = Int.random(in: 0..<3_000, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let item = Item(id: key, text: "\(key).\(step)")
                let (slot, previous) = rows.place(item, key: key)
                #expect(previous?.text == model[key])
                if previous == nil, slot == rows.slots.count - 1 { undo.append((key, slot, nil)) }
                model[key] = item.text
            case 5..<8:
                let removed = rows.remove(key)
                #expect(removed?.row.text == model[key])
                if let removed { undo.append((key, removed.slot, removed.row)) }
                model[key] = nil
            case 8:
                // Undo the latest change still undoable in its own slot.
                guard let last = undo.popLast() else { break }
                if let previous = last.previous {
                    guard rows.slots[last.slot] == nil, model[last.key] == nil else { break }
                    rows.restore(previous, key: last.key, slot: last.slot)
                    model[last.key] = previous.text
                } else if rows.slots[last.slot]?.key == last.key {
                    rows.clear(slot: last.slot)
                    model[last.key] = nil
                }
            default:
                if Int.random(in: 0..<20, using: &random) == 0 {
                    undo.removeAll()
                    rows.compactIfSparse()
                }
            }
            #expect(rows.liveCount == model.count)
        }
        for key in 0..<3_000 {
            let slot = rows.slot(of: key)
            #expect(slot.flatMap { rows.row(at: $0)?.text } == model[key], "key \(key)")
        }
        rows.keyIndex = nil
        for key in 0..<3_000 { #expect(rows.slot(of: key).flatMap { rows.row(at: $0)?.text } == model[key]) }
    }
}
