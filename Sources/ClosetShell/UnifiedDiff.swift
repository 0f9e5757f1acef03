/// A unified diff of two line arrays (longest common subsequence, three lines of context),
/// enough for golden transcripts of a few thousand lines.
enum UnifiedDiff {
    enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        // Trim the common head and tail first; most golden diffs are a few lines in the middle.
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] {
            tail += 1
        }
        let a = Array(old[head..<(old.count - tail)])
        let b = Array(new[head..<(new.count - tail)])
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result = old[0..<head].map(Edit.same)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                result.append(.same(a[i]))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || lengths[i + 1][j] >= lengths[i][j + 1] {
                result.append(.removed(a[i]))
                i += 1  // removals first, as diff(1) prints them
            } else {
                result.append(.added(b[j]))
                j += 1
            }
        }
        result += old[(old.count - tail)...].map(Edit.same)
        return result
    }

    static func render(old: [String], new: [String], oldName: String, newName: String, context: Int = 3) -> String {
        let edits = edits(old, new)
        let changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        guard !changed.isEmpty else { return "" }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var groups: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = groups.last, range.lowerBound <= last.upperBound + 1 {
                groups[groups.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                groups.append(range)
            }
        }
        for group in groups {
            var oldStart = 1
            var newStart = 1
            for edit in edits[..<group.lowerBound] {
                switch edit {
                case .same:
                    oldStart += 1
                    newStart += 1
                case .removed: oldStart += 1
                case .added: newStart += 1
                }
            }
            let slice = edits[group]
            let oldCount = slice.filter { if case .added = $0 { false } else { true } }.count
            let newCount = slice.filter { if case .removed = $0 { false } else { true } }.count
            out +=
                "@@ -\(oldCount == 0 ? oldStart - 1 : oldStart),\(oldCount) +\(newCount == 0 ? newStart - 1 : newStart),\(newCount) @@\n"
            for edit in slice {
                switch edit {
                case .same(let line): out += " \(line)\n"
                case .removed(let line): out += "-\(line)\n"
                case .added(let line): out += "+\(line)\n"
                }
            }
        }
        return out
    }
}
