extension Deflate {
    /// LZ77 over the input: each position's three bytes hashed into chains of earlier positions
    /// in the 32 KB window, the longest match found within `maxChain` of them, and one step of
    /// lazy matching (a match is put off when the next position starts a longer one).
    struct Matcher {
        static let window = 1 << 15
        static let hashBits = 15
        static let maxChain = 48
        /// A match at least this long is taken without looking one position further.
        static let goodLength = 32
        /// A three-byte match further back than this costs more than three literals.
        static let farThree = 4096

        private let bytes: UnsafeBufferPointer<UInt8>
        private(set) var position = 0
        private var inserted = 0
        private var head = [Int32](repeating: -1, count: 1 << hashBits)
        private var previous = [Int32](repeating: -1, count: window)

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The tokens of the next block (at most `maxTokens`), from `position` on.
        mutating func nextBlock(maxTokens: Int) -> [Token] {
            var tokens: [Token] = []
            tokens.reserveCapacity(min(maxTokens, bytes.count - position + 1))
            while position < bytes.count && tokens.count < maxTokens {
                var (length, distance) = longest(at: position)
                while length >= 3 && length < Self.goodLength && position + 1 < bytes.count
                    && tokens.count < maxTokens - 1
                {
                    let (nextLength, nextDistance) = longest(at: position + 1)
                    guard nextLength > length else { break }
                    tokens.append(Token(bytes[position]))
                    position += 1
                    (length, distance) = (nextLength, nextDistance)
                }
                if length >= 3 {
                    tokens.append(Deflate.match(length: length, distance: distance))
                    position += length
                } else {
                    tokens.append(Token(bytes[position]))
                    position += 1
                }
            }
            return tokens
        }

        @inline(__always)
        private func hash(_ at: Int) -> Int {
            let value = UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
            return Int((value &* 2_654_435_761) >> UInt32(32 - Self.hashBits))
        }

        /// Puts every position before `end` into its chain.
        private mutating func insert(before end: Int) {
            let last = min(end, bytes.count - 2)
            while inserted < last {
                let key = hash(inserted)
                previous[inserted & (Self.window - 1)] = head[key]
                head[key] = Int32(inserted)
                inserted += 1
            }
            inserted = max(inserted, end)
        }

        /// The longest earlier match for the bytes at `at`: its length (0 when none of at
        /// least three) and distance.
        private mutating func longest(at: Int) -> (length: Int, distance: Int) {
            insert(before: at)
            let limit = min(258, bytes.count - at)
            guard limit >= 3 else { return (0, 0) }
            var candidate = Int(head[hash(at)])
            var best = 0
            var bestDistance = 0
            var chain = Self.maxChain
            while candidate >= 0, at - candidate <= Self.window, chain > 0 {
                if bytes[candidate + best] == bytes[at + best] {
                    var length = 0
                    while length < limit && bytes[candidate + length] == bytes[at + length] { length += 1 }
                    if length > best {
                        best = length
                        bestDistance = at - candidate
                        if length == limit { break }
                    }
                }
                let next = Int(previous[candidate & (Self.window - 1)])
                // A slot reused by a newer position ends the chain.
                guard next < candidate else { break }
                candidate = next
                chain -= 1
            }
            if best < 3 || best == 3 && bestDistance > Self.farThree { return (0, 0) }
            return (best, bestDistance)
        }
    }
}
