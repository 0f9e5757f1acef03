import ClosetCore

/// DEC sixel graphics (xterm with `-ti vt340`, foot, mlterm, WezTerm, Windows Terminal): the
/// picture reduced to at most 255 colours by median cut, dithered (Floyd–Steinberg), then
/// written six rows at a time, each colour's run of columns in one pass, runs compressed.
/// Pixels under half opaque are left as the terminal's background (`P2 = 1`).
public enum Sixel {
    public static let maximumColours = 255

    public static func escape(_ bitmap: Bitmap) -> String {
        let (palette, indices) = quantize(bitmap)
        var out = "\u{1B}P0;1;0q\"1;1;\(bitmap.width);\(bitmap.height)"
        for (index, colour) in palette.enumerated() {
            func percent(_ value: Int) -> Int { (value * 100 + 127) / 255 }
            out += "#\(index);2;\(percent(colour.0));\(percent(colour.1));\(percent(colour.2))"
        }
        let width = bitmap.width
        for band in stride(from: 0, to: bitmap.height, by: 6) {
            let rows = min(6, bitmap.height - band)
            var used = Set<Int>()
            for y in band..<(band + rows) {
                for x in 0..<width where indices[y * width + x] >= 0 { used.insert(Int(indices[y * width + x])) }
            }
            var passes: [String] = []
            for colour in used.sorted() {
                var line = "#\(colour)"
                var previous: UInt8 = 0
                var run = 0
                func flush() {
                    guard run > 0 else { return }
                    let character = String(UnicodeScalar(63 + previous))
                    line += run > 3 ? "!\(run)" + character : String(repeating: character, count: run)
                }
                for x in 0..<width {
                    var bits: UInt8 = 0
                    for dy in 0..<rows where indices[(band + dy) * width + x] == colour { bits |= 1 << UInt8(dy) }
                    if bits == previous {
                        run += 1
                    } else {
                        flush()
                        previous = bits
                        run = 1
                    }
                }
                // Trailing empty columns need not be sent.
                if previous != 0 { flush() }
                passes.append(line)
            }
            out += passes.joined(separator: "$") + "-"
        }
        return out + "\u{1B}\\"
    }

    /// A palette of at most 255 colours and each pixel's index in it (-1: transparent).
    static func quantize(_ bitmap: Bitmap) -> (palette: [(Int, Int, Int)], indices: [Int16]) {
        // Median cut over a 5-bit-per-channel histogram.
        var counts = [Int](repeating: 0, count: 1 << 15)
        let count = bitmap.width * bitmap.height
        for i in 0..<count where bitmap.pixels[4 * i + 3] >= 128 {
            counts[key(Int(bitmap.pixels[4 * i]), Int(bitmap.pixels[4 * i + 1]), Int(bitmap.pixels[4 * i + 2]))] += 1
        }
        var boxes: [[Int]] = [counts.indices.filter { counts[$0] > 0 }]
        if boxes[0].isEmpty { return ([], [Int16](repeating: -1, count: count)) }
        func channel(_ key: Int, _ axis: Int) -> Int { (key >> (10 - 5 * axis)) & 31 }
        func range(_ box: [Int]) -> (axis: Int, span: Int) {
            var best = (0, -1)
            for axis in 0..<3 {
                let values = box.map { channel($0, axis) }
                let span = (values.max() ?? 0) - (values.min() ?? 0)
                if span > best.1 { best = (axis, span) }
            }
            return best
        }
        while boxes.count < maximumColours {
            guard
                let (index, axis) = boxes.indices.compactMap({ i -> (Int, Int, Int)? in
                    let (axis, span) = range(boxes[i])
                    return boxes[i].count > 1 && span > 0 ? (i, axis, span) : nil
                }).max(by: { $0.2 < $1.2 }).map({ ($0.0, $0.1) })
            else { break }
            let sorted = boxes[index].sorted { channel($0, axis) < channel($1, axis) }
            // The median by pixel count, keeping both halves non-empty.
            let total = sorted.reduce(0) { $0 + counts[$1] }
            var seen = 0
            var cut = 1
            for (position, key) in sorted.enumerated() {
                seen += counts[key]
                if seen * 2 >= total {
                    cut = min(max(position + 1, 1), sorted.count - 1)
                    break
                }
            }
            boxes[index] = Array(sorted[..<cut])
            boxes.append(Array(sorted[cut...]))
        }
        let palette: [(Int, Int, Int)] = boxes.map { box in
            var (r, g, b, n) = (0, 0, 0, 0)
            for key in box {
                let weight = counts[key]
                r += (channel(key, 0) * 255 / 31) * weight
                g += (channel(key, 1) * 255 / 31) * weight
                b += (channel(key, 2) * 255 / 31) * weight
                n += weight
            }
            return (r / n, g / n, b / n)
        }
        // Nearest palette entry per 5-bit colour, found once each; the dithering's error is
        // carried at full precision.
        var nearest = [Int16](repeating: -1, count: 1 << 15)
        func closest(_ r: Int, _ g: Int, _ b: Int) -> Int16 {
            let k = key(r, g, b)
            if nearest[k] >= 0 { return nearest[k] }
            var best = (0, Int.max)
            for (index, colour) in palette.enumerated() {
                let (dr, dg, db) = (colour.0 - r, colour.1 - g, colour.2 - b)
                let distance = dr * dr + dg * dg + db * db
                if distance < best.1 { best = (index, distance) }
            }
            nearest[k] = Int16(best.0)
            return Int16(best.0)
        }
        var error = [Int](repeating: 0, count: (bitmap.width + 2) * 2 * 3)
        var indices = [Int16](repeating: -1, count: count)
        let width = bitmap.width
        for y in 0..<bitmap.height {
            let (this, next) = ((y % 2) * (width + 2) * 3, ((y + 1) % 2) * (width + 2) * 3)
            for i in 0..<((width + 2) * 3) { error[next + i] = 0 }
            for x in 0..<width {
                let at = (y * width + x) * 4
                guard bitmap.pixels[at + 3] >= 128 else { continue }
                let e = this + (x + 1) * 3
                let wanted = (0..<3).map { min(255, max(0, Int(bitmap.pixels[at + $0]) + error[e + $0] / 16)) }
                let index = closest(wanted[0], wanted[1], wanted[2])
                indices[y * width + x] = index
                let chosen = [palette[Int(index)].0, palette[Int(index)].1, palette[Int(index)].2]
                for c in 0..<3 {
                    let difference = wanted[c] - chosen[c]
                    error[e + 3 + c] += difference * 7
                    error[next + (x) * 3 + c] += difference * 3
                    error[next + (x + 1) * 3 + c] += difference * 5
                    error[next + (x + 2) * 3 + c] += difference
                }
            }
        }
        return (palette, indices)
    }

    static func key(_ r: Int, _ g: Int, _ b: Int) -> Int { (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3) }
}
