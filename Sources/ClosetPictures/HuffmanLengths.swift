/// Code lengths for a DEFLATE Huffman code (RFC 1951, 3.2.2), limited to `maxBits`, and the
/// canonical codes they give. What the compressor writes is what `Inflate` reads back.
enum HuffmanLengths {
    /// The length of each symbol's code from its count: 0 for a symbol never used. Always a
    /// complete code of at least two symbols (a decoder may refuse one code of one symbol), so a
    /// table with fewer than two used symbols gets one or two codes of one bit.
    static func lengths(of counts: [Int], maxBits: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: counts.count)
        let used = counts.indices.filter { counts[$0] > 0 }
        if used.count < 2 {
            let first = used.first ?? 0
            lengths[first] = 1
            lengths[first == 0 ? 1 : 0] = 1
            return lengths
        }
        var weights = counts
        while true {
            let depths = huffmanDepths(used.map { weights[$0] })
            if depths.allSatisfy({ $0 <= maxBits }) {
                for (symbol, depth) in zip(used, depths) { lengths[symbol] = UInt8(depth) }
                return lengths
            }
            // Too deep: flatten the counts and build again. Halving keeps their order and
            // ends in equal weights, whose tree is balanced (286 symbols fit in 9 bits).
            for symbol in used { weights[symbol] = (weights[symbol] + 1) / 2 }
        }
    }

    /// The depth of each leaf of a Huffman tree over `weights` (each > 0, at least two), by the
    /// two-queue method over the sorted leaves.
    static func huffmanDepths(_ weights: [Int]) -> [Int] {
        let leaves = weights.indices.sorted { (weights[$0], $0) < (weights[$1], $1) }
        let leafCount = leaves.count
        // Nodes 0..<leafCount are the sorted leaves; then the merged nodes in the order made.
        var weight = leaves.map { weights[$0] }
        var parent = [Int](repeating: -1, count: 2 * leafCount - 1)
        weight.reserveCapacity(2 * leafCount - 1)
        var nextLeaf = 0
        var nextMerged = leafCount
        func takeSmallest() -> Int {
            if nextLeaf < leafCount && (nextMerged >= weight.count || weight[nextLeaf] <= weight[nextMerged]) {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextMerged += 1
            return nextMerged - 1
        }
        while weight.count < 2 * leafCount - 1 {
            let a = takeSmallest()
            let b = takeSmallest()
            parent[a] = weight.count
            parent[b] = weight.count
            weight.append(weight[a] + weight[b])
        }
        // Parents are made after their children: depths from the root down.
        var depth = [Int](repeating: 0, count: weight.count)
        for node in stride(from: weight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var depths = [Int](repeating: 0, count: leafCount)
        for (position, leaf) in leaves.enumerated() { depths[leaf] = depth[position] }
        return depths
    }

    /// The canonical codes of `lengths` (RFC 1951, 3.2.2), each bit-reversed, as the writer
    /// sends a code's first bit first.
    static func codes(_ lengths: [UInt8]) -> [UInt32] {
        var countOfLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { countOfLength[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countOfLength[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[Int(length)]
            next[Int(length)] += 1
            var reversed: UInt32 = 0
            for bit in 0..<Int(length) where value >> bit & 1 == 1 { reversed |= 1 << (Int(length) - 1 - bit) }
            return reversed
        }
    }
}
