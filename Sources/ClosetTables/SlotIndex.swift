/// Slots by key for `SlotRows`: open addressing over words that each hold a key's hash and its
/// slot, the keys themselves staying in the slots. Growing moves words and never hashes a key
/// again (the standard dictionary hashed and moved every key at each doubling: 8 % of replaying
/// 100,000 adds), and an entry takes 8 bytes where the dictionary took a key's 16 and a slot's 8.
///
/// Linear probing, at most three quarters full; removal shifts the entries after the hole back
/// (no tombstones), so a table that churns never slows down.
@usableFromInline struct SlotIndex {
    /// 0: empty; else the key's hash in the high half and its slot + 1 in the low half.
    @usableFromInline var words: [UInt64]
    @usableFromInline var count = 0

    /// Room for `count` keys before it grows.
    @inlinable init(capacity count: Int = 0) {
        words = Array(repeating: 0, count: Self.wordCount(for: count))
    }

    @inlinable static func wordCount(for keys: Int) -> Int {
        var words = 16
        while keys > words / 4 * 3 { words *= 2 }
        return words
    }

    /// The hash a key is filed under (the process's seeded hash, so ids a client chooses cannot
    /// pile up in one run).
    @inlinable static func hash<Key: Hashable>(_ key: Key) -> UInt32 {
        UInt32(truncatingIfNeeded: key.hashValue)
    }

    @inlinable static func slot(in word: UInt64) -> Int { Int(word & 0xFFFF_FFFF) - 1 }

    /// Where the key whose slot `isKey` accepts is filed among those with `hash`, with its slot;
    /// else the empty position it would take, and nil.
    @inlinable func find(_ hash: UInt32, _ isKey: (_ slot: Int) -> Bool) -> (position: Int, slot: Int?) {
        words.withUnsafeBufferPointer { words in
            let mask = words.count - 1
            let tag = UInt64(hash) << 32
            var position = Int(hash) & mask
            while true {
                let word = words[position]
                if word == 0 { return (position, nil) }
                if word & 0xFFFF_FFFF_0000_0000 == tag, isKey(Self.slot(in: word)) {
                    return (position, Self.slot(in: word))
                }
                position = (position + 1) & mask
            }
        }
    }

    /// Files a key not yet filed at the empty `position` `find` gave; call `makeRoom()` before
    /// that `find`.
    @inlinable mutating func insert(_ hash: UInt32, slot: Int, at position: Int) {
        precondition(slot < 0xFFFF_FFFF, "more rows than a table holds in memory")
        words[position] = UInt64(hash) << 32 | UInt64(slot + 1)
        count += 1
    }

    /// Files a key known not to be filed yet (rows known to be distinct).
    @inlinable mutating func insertNew(_ hash: UInt32, slot: Int) {
        makeRoom()
        let position = find(hash) { _ in false }.position
        insert(hash, slot: slot, at: position)
    }

    @inlinable mutating func update(at position: Int, slot: Int) {
        words[position] = words[position] & 0xFFFF_FFFF_0000_0000 | UInt64(slot + 1)
    }

    /// Room for one more key, so a `find` then `insert` lands in the table that keeps it.
    @inlinable mutating func makeRoom() {
        if count + 1 > words.count / 4 * 3 { resize(words.count * 2) }
    }

    mutating func reserve(_ keys: Int) {
        let needed = Self.wordCount(for: keys)
        if needed > words.count { resize(needed) }
    }

    /// Empties `position` and moves back each entry after it that may now sit nearer its home.
    @inlinable mutating func remove(at position: Int) {
        words.withUnsafeMutableBufferPointer { words in
            let mask = words.count - 1
            var hole = position
            var next = (position + 1) & mask
            while words[next] != 0 {
                let home = Int(words[next] >> 32) & mask
                // It may move into the hole unless its home lies after the hole, up to itself.
                if (next - home) & mask >= (next - hole) & mask {
                    words[hole] = words[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            words[hole] = 0
        }
        count -= 1
    }

    @usableFromInline mutating func resize(_ wordCount: Int) {
        var grown = [UInt64](repeating: 0, count: wordCount)
        grown.withUnsafeMutableBufferPointer { grown in
            let mask = wordCount - 1
            for word in words where word != 0 {
                var position = Int(word >> 32) & mask
                while grown[position] != 0 { position = (position + 1) & mask }
                grown[position] = word
            }
        }
        words = grown
    }

    @inlinable mutating func removeAll(keepingCapacity: Bool) {
        if keepingCapacity {
            words.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            words = Array(repeating: 0, count: Self.wordCount(for: 0))
        }
        count = 0
    }
}
