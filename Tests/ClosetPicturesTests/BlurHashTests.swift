import Foundation
import Testing

@testable import ClosetPictures

/// BlurHash as woltapp's reference defines it: base 83, a DC colour in sRGB and AC
/// components quantised in 19 steps, decoded as a sum of cosines in linear light.
@Suite struct BlurHashTests {
    static func encode83(_ value: Int, length: Int) -> String {
        var digits: [Character] = []
        var rest = value
        for _ in 0..<length {
            digits.append(Character(UnicodeScalar(BlurHash.digits[rest % 83])))
            rest /= 83
        }
        return String(digits.reversed())
    }

    /// One component only: every pixel is the DC colour itself.
    @Test func aHashOfOneComponentIsItsColourEverywhere() throws {
        let hash = "00" + Self.encode83(0x40_261A, length: 4)
        let picture = try #require(BlurHash.decode(hash, width: 7, height: 5))
        for at in stride(from: 0, to: picture.pixels.count, by: 4) {
            #expect(Array(picture.pixels[at..<(at + 4)]) == [0x40, 0x26, 0x1A, 255])
        }
    }

    /// The reference's example hash: its components average out, so the picture's mean in
    /// linear light is its DC colour (the cosines of every AC component sum to nearly zero
    /// over whole half-periods), and its corners differ (the AC components are there).
    @Test func theReferenceExampleAveragesToItsColour() throws {
        let hash = "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
        let (across, down, colors) = try #require(BlurHash.components(hash))
        #expect(across == 4 && down == 3 && colors.count == 12)
        let picture = try #require(BlurHash.decode(hash, width: 64, height: 48))
        var sums = [0.0, 0.0, 0.0]
        for at in stride(from: 0, to: picture.pixels.count, by: 4) {
            for channel in 0..<3 { sums[channel] += BlurHash.linear(Int(picture.pixels[at + channel])) }
        }
        let count = Double(picture.width * picture.height)
        let dc = [colors[0].0, colors[0].1, colors[0].2]
        for channel in 0..<3 { #expect(abs(sums[channel] / count - dc[channel]) < 0.03, "\(channel)") }
        #expect(
            Array(picture.pixels[0..<3])
                != Array(picture.pixels[(picture.pixels.count - 4)..<(picture.pixels.count - 1)]))
    }

    @Test func anythingMalformedIsNil() {
        for hash in [
            "", "L", "LEHV6nWB2yk8pyo0adR*.7kCMdn", "LEHV6nWB2yk8pyo0adR*.7kCMdnjj",
            "LEHV6nWB2yk8pyo0adR*.7kCMdn\u{E9}",
            "LPE{%9", "00 abc", "00\u{1F9E5}",
        ] {
            #expect(BlurHash.decode(hash, width: 8, height: 8) == nil, "\(hash)")
        }
        #expect(BlurHash.decode("00" + Self.encode83(0, length: 4), width: 0, height: 8) == nil)
        #expect(BlurHash.decode("00" + Self.encode83(0, length: 4), width: BlurHash.maximumSide + 1, height: 8) == nil)
    }
}
