import ClosetCore
import ClosetPictures
import Foundation

/// Generated pictures for the recorded worlds: a landscape of its own for each name (a sky in
/// two colours, a sun, three ridges, a little grain), so a feed of forty looks like forty photos
/// and a JPEG of one is the size a photo of that size is, not a flat gradient. The same name
/// always gives the same picture (the recordings are checked byte for byte).
package enum SampleScenes {
    /// The scene named `name` at `width` × `height`.
    package static func scene(_ name: String, width: Int, height: Int) -> Bitmap {
        var random = SplitMix64(seed: fnv1a(name))
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func color(_ low: Double, _ high: Double) -> (Double, Double, Double) {
            (low + (high - low) * unit(), low + (high - low) * unit(), low + (high - low) * unit())
        }
        let skyTop = color(20, 140)
        let skyHorizon = color(140, 250)
        let sun = color(200, 255)
        let sunX = 0.15 + 0.7 * unit()
        let sunY = 0.12 + 0.3 * unit()
        let sunRadius = 0.05 + 0.08 * unit()
        let land = color(30, 170)
        struct Wave {
            var amplitude: Double
            var frequency: Double
            var phase: Double
        }
        var ridges: [(base: Double, waves: [Wave])] = []
        for layer in 0..<3 {
            let base = 0.45 + 0.17 * Double(layer) + 0.05 * unit()
            var waves: [Wave] = []
            for wave in 0..<3 {
                let amplitude = 0.05 / Double(wave + 1) * (0.5 + unit())
                let frequency = Double(wave + 1) * (2 + 3 * unit())
                waves.append(Wave(amplitude: amplitude, frequency: frequency, phase: 6.28 * unit()))
            }
            ridges.append((base, waves))
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let w = Double(max(1, width))
        let h = Double(max(1, height))
        let aspect = w / h
        // The ridges' heights once per column.
        let heights: [[Double]] = ridges.map { ridge in
            (0..<width).map { x in
                ridge.base
                    + ridge.waves.reduce(0) { sum, wave in
                        sum + wave.amplitude * sin(Double(x) / w * wave.frequency * 6.28 + wave.phase)
                    }
            }
        }
        // The sky's gradient ends at the farthest ridge's mean height (a horizon, not streaks).
        let horizon = max(0.01, heights[0].reduce(0, +) / Double(max(1, width)))
        var grain = SplitMix64(seed: fnv1a(name) ^ 0x9E37_79B9)
        for y in 0..<height {
            let v = Double(y) / h
            for x in 0..<width {
                let u = Double(x) / w
                var rgb: (Double, Double, Double)
                if let layer = (0..<3).last(where: { v >= heights[$0][x] }) {
                    // Nearer ridges darker and warmer, each shaded downwards.
                    let shade = (0.55 + 0.2 * Double(2 - layer)) * (1 - 0.35 * (v - heights[layer][x]))
                    rgb = (land.0 * shade + 12 * Double(layer), land.1 * shade, land.2 * shade * 0.8)
                } else {
                    let t = min(1, v / horizon)
                    rgb = (
                        skyTop.0 + (skyHorizon.0 - skyTop.0) * t, skyTop.1 + (skyHorizon.1 - skyTop.1) * t,
                        skyTop.2 + (skyHorizon.2 - skyTop.2) * t
                    )
                    let dx = (u - sunX) * aspect
                    let dy = v - sunY
                    let distance = (dx * dx + dy * dy).squareRoot()
                    let glow = max(0, min(1, (sunRadius * 1.15 - distance) / (sunRadius * 0.15)))
                    rgb = (
                        rgb.0 + (sun.0 - rgb.0) * glow, rgb.1 + (sun.1 - rgb.1) * glow, rgb.2 + (sun.2 - rgb.2) * glow
                    )
                }
                let noise = Double(Int(grain.next() & 3) - 2)
                let at = (y * width + x) * 4
                pixels[at] = UInt8(max(0, min(255, rgb.0 + noise)))
                pixels[at + 1] = UInt8(max(0, min(255, rgb.1 + noise)))
                pixels[at + 2] = UInt8(max(0, min(255, rgb.2 + noise)))
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The scene as a JPEG, as a CDN serves a photo.
    package static func jpeg(_ name: String, width: Int, height: Int) -> [UInt8] {
        JPEGEncoder.encode(scene(name, width: width, height: height), quality: 75)
    }

    /// Its average colour as Unsplash's `color` gives one: `#5a7b3c`.
    package static func averageColor(_ bitmap: Bitmap) -> String {
        var sums = [0, 0, 0]
        let count = max(1, bitmap.width * bitmap.height)
        for at in stride(from: 0, to: count * 4, by: 4) {
            for channel in 0..<3 { sums[channel] += Int(bitmap.pixels[at + channel]) }
        }
        return "#" + sums.map { String(format: "%02x", $0 / count) }.joined()
    }

    /// Its BlurHash (woltapp's encoding, `across` × `down` components), as Unsplash's
    /// `blur_hash` gives one: what `--placeholders` decodes.
    package static func blurHash(_ bitmap: Bitmap, across: Int = 4, down: Int = 3) -> String {
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")
        func base83(_ value: Int, _ length: Int) -> String {
            (1...length).map { digits[(value / Int(pow(83, Double(length - $0)))) % 83] }.map(String.init).joined()
        }
        func linear(_ value: UInt8) -> Double {
            let v = Double(value) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        func sRGB(_ value: Double) -> Int {
            let v = max(0, min(1, value))
            return Int((v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
        }
        let (width, height) = (bitmap.width, bitmap.height)
        var factors: [(Double, Double, Double)] = []
        for j in 0..<down {
            for i in 0..<across {
                let normalisation = i == 0 && j == 0 ? 1.0 : 2.0
                var sum = (0.0, 0.0, 0.0)
                for y in 0..<height {
                    for x in 0..<width {
                        let basis =
                            normalisation * cos(Double.pi * Double(i * x) / Double(width))
                            * cos(Double.pi * Double(j * y) / Double(height))
                        let at = (y * width + x) * 4
                        sum.0 += basis * linear(bitmap.pixels[at])
                        sum.1 += basis * linear(bitmap.pixels[at + 1])
                        sum.2 += basis * linear(bitmap.pixels[at + 2])
                    }
                }
                let scale = 1 / Double(width * height)
                factors.append((sum.0 * scale, sum.1 * scale, sum.2 * scale))
            }
        }
        let dc = factors[0]
        let ac = factors.dropFirst()
        var hash = base83((across - 1) + (down - 1) * 9, 1)
        let actualMaximum = ac.map { max(abs($0.0), abs($0.1), abs($0.2)) }.max() ?? 0
        let quantisedMaximum = ac.isEmpty ? 0 : max(0, min(82, Int((actualMaximum * 166 - 0.5).rounded(.down))))
        let maximum = ac.isEmpty ? 1 : Double(quantisedMaximum + 1) / 166
        hash += base83(quantisedMaximum, 1)
        hash += base83((sRGB(dc.0) << 16) + (sRGB(dc.1) << 8) + sRGB(dc.2), 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                let scaled = value / maximum
                let signed = (scaled < 0 ? -1.0 : 1.0) * pow(abs(scaled), 0.5)
                return max(0, min(18, Int((signed * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.0) * 19 * 19 + quantise(factor.1) * 19 + quantise(factor.2), 2)
        }
        return hash
    }

    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
