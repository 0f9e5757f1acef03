import Foundation

/// BlurHash (woltapp/blurhash, the format Unsplash's answers carry as `blur_hash`): a picture's
/// few lowest cosine components in base 83, decoded to a soft picture of any size, as
/// Unsplash's own apps show one while the photo loads. Anything not a well-formed hash is nil,
/// never a trap.
public enum BlurHash {
    static let digits = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)
    static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, digit) in digits.enumerated() { table[Int(digit)] = Int8(index) }
        return table
    }()

    /// The largest picture decoded: a placeholder is a few hundred pixels a side.
    public static let maximumSide = 2_000

    static func decode83(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte < 128, values[Int(byte)] >= 0 else { return nil }
            value = value * 83 + Int(values[Int(byte)])
        }
        return value
    }

    static func linear(_ value: Int) -> Double {
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func sRGB(_ value: Double) -> UInt8 {
        let v = max(0, min(1, value))
        let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
        return UInt8(max(0, min(255, (encoded * 255 + 0.5).rounded(.down))))
    }

    /// The components of a hash (linear RGB), and how many across and down; nil when malformed.
    static func components(_ hash: String) -> (across: Int, down: Int, colors: [(Double, Double, Double)])? {
        let bytes = Array(hash.utf8)
        guard bytes.count >= 6, let sizeFlag = decode83(bytes[0..<1]), let quantisedMaximum = decode83(bytes[1..<2])
        else { return nil }
        let across = sizeFlag % 9 + 1
        let down = sizeFlag / 9 + 1
        guard bytes.count == 4 + 2 * across * down, let dc = decode83(bytes[2..<6]) else { return nil }
        let maximum = Double(quantisedMaximum + 1) / 166
        var colors = [(linear(dc >> 16), linear(dc >> 8 & 255), linear(dc & 255))]
        for index in 1..<(across * down) {
            guard let value = decode83(bytes[(4 + index * 2)..<(6 + index * 2)]) else { return nil }
            func ac(_ quantised: Int) -> Double {
                let x = Double(quantised - 9) / 9
                return (x < 0 ? -1 : 1) * x * x * maximum
            }
            colors.append((ac(value / (19 * 19)), ac(value / 19 % 19), ac(value % 19)))
        }
        return (across, down, colors)
    }

    /// The hash as a picture `width` × `height` (each side 1 to `maximumSide`); nil when the
    /// hash is malformed or the size out of range.
    public static func decode(_ hash: String, width: Int, height: Int) -> Bitmap? {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height),
            let (across, down, colors) = components(hash)
        else { return nil }
        // The cosines once per column and per row, not per pixel.
        let columns = (0..<width).map { x in (0..<across).map { i in cos(Double.pi * Double(x * i) / Double(width)) } }
        let rows = (0..<height).map { y in (0..<down).map { j in cos(Double.pi * Double(y * j) / Double(height)) } }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var r = 0.0
                var g = 0.0
                var b = 0.0
                for j in 0..<down {
                    for i in 0..<across {
                        let basis = columns[x][i] * rows[y][j]
                        let color = colors[i + j * across]
                        r += color.0 * basis
                        g += color.1 * basis
                        b += color.2 * basis
                    }
                }
                let at = (y * width + x) * 4
                pixels[at] = sRGB(r)
                pixels[at + 1] = sRGB(g)
                pixels[at + 2] = sRGB(b)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}
