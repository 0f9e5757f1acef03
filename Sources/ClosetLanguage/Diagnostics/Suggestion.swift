/// The one `did you mean` helper every unknown name goes through: the candidate with the
/// smallest edit distance, if close enough to be a plausible typo, or one the input begins.
package enum Suggestion {
    /// Words longer than this are not typos of a command or value name: no suggestion, and
    /// no quadratic work on a pasted paragraph.
    static let longestWord = 64

    package static func closest(to input: String, among candidates: [String]) -> String? {
        closestAll(to: input, among: candidates).first
    }

    /// Every candidate as close as the closest (`겨을` is one edit from both `가을` and `겨울`),
    /// in the candidates' order.
    package static func closestAll(to input: String, among candidates: [String]) -> [String] {
        let typed = Array(input.lowercased())
        guard !typed.isEmpty, typed.count <= longestWord else { return [] }
        let allowed = max(1, min(3, typed.count / 3))
        var best: (candidates: [String], distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            // The distance is at least the difference in length: skip what cannot be close.
            guard abs(other.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, other)
            if distance < (best?.distance ?? Int.max) {
                best = ([candidate], distance)
            } else if distance == best?.distance, best?.candidates.contains(candidate) == false {
                best?.candidates.append(candidate)
            }
        }
        // Replacing every letter is no typo: `-v` is not `-c`, `x` is not `봄` (leading dashes
        // and dots are not letters).
        let letters = typed.drop(while: { $0 == "-" || $0 == "." }).count
        if let best, best.distance <= allowed, best.distance > 0, best.distance < letters { return best.candidates }
        if typed.count >= 2,
            let prefixed = candidates.first(where: {
                $0.lowercased().hasPrefix(input.lowercased()) && $0.count > typed.count
            })
        {
            return [prefixed]
        }
        return []
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
