/// A list of numbers kept as runs, each a first value and how many follow it, every one `step`
/// more than the one before: the undo logs of a transaction, whose table numbers repeat (step
/// 0) and whose inserts into an empty table count up (step 1). An import of ten million rows
/// held 80 MB of them as one number each; as runs it holds a few bytes.
@usableFromInline struct ValueRuns: Sequence {
    @usableFromInline let step: UInt32
    @usableFromInline var runs: [(first: UInt32, count: UInt32)] = []
    /// How many numbers there are.
    @usableFromInline private(set) var count = 0
    /// How many are expected (`reserveCapacity`): a hint for those who make room for them.
    @usableFromInline private(set) var expected = 0

    @inlinable init(step: UInt32) { self.step = step }

    @inlinable var isEmpty: Bool { count == 0 }
    @inlinable var capacity: Int { Swift.max(expected, count) }

    @inlinable mutating func reserveCapacity(_ count: Int) { expected = Swift.max(expected, count) }

    @inlinable mutating func append(_ value: UInt32) {
        count += 1
        if let run = runs.last, run.count < UInt32.max, run.first &+ run.count &* step == value {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((value, 1))
        }
    }

    /// The last number, taken off; nil when there is none.
    @inlinable @discardableResult mutating func removeLast() -> UInt32? {
        guard let run = runs.last else { return nil }
        count -= 1
        if run.count == 1 {
            runs.removeLast()
        } else {
            runs[runs.count - 1].count -= 1
        }
        return run.first &+ (run.count - 1) &* step
    }

    @inlinable mutating func removeAll() {
        runs.removeAll(keepingCapacity: true)
        count = 0
        expected = 0
    }

    /// Each number once, in no order.
    @inlinable var distinct: Set<UInt32> {
        step == 0 ? Set(runs.map(\.first)) : Set(self)
    }

    @usableFromInline struct Iterator: IteratorProtocol {
        @usableFromInline let runs: ValueRuns
        @usableFromInline var run = 0
        @usableFromInline var offset: UInt32 = 0

        @inlinable init(runs: ValueRuns) { self.runs = runs }

        @inlinable mutating func next() -> UInt32? {
            while run < runs.runs.count, offset >= runs.runs[run].count {
                run += 1
                offset = 0
            }
            guard run < runs.runs.count else { return nil }
            defer { offset += 1 }
            return runs.runs[run].first &+ offset &* runs.step
        }
    }

    @inlinable func makeIterator() -> Iterator { Iterator(runs: self) }
}
