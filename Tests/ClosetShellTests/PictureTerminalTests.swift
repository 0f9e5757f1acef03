import ClosetCore
import ClosetPictures
import Foundation
import TestSupport
import Testing

/// Issue 26: pictures reach a terminal and nothing else. A screenshot-style check on a real
/// pseudo-terminal of 80×24, and the same statement into a pipe.
@Suite struct PictureTerminalTests {
    /// A 32×32 picture in four solid quarters: red, green / blue, white.
    static func quarters() -> [UInt8] {
        var bitmap = Bitmap(width: 32, height: 32)
        for y in 0..<32 {
            for x in 0..<32 {
                let colour: [UInt8] =
                    y < 16
                    ? (x < 16 ? [255, 0, 0, 255] : [0, 255, 0, 255])
                    : (x < 16 ? [0, 0, 255, 255] : [255, 255, 255, 255])
                bitmap.pixels.replaceSubrange(((y * 32 + x) * 4)..<((y * 32 + x) * 4 + 4), with: colour)
            }
        }
        return PNGEncoder.encode(bitmap)
    }

    static func seededStore() throws -> (folder: String, store: String) {
        let folder = NSTemporaryDirectory() + "closet-pictures-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(quarters()).write(to: URL(fileURLWithPath: folder + "/quarters.png"))
        let seeded = try ChildProcess.run(
            BuiltProducts.closet,
            ["--store", folder + "/store", "-c", "add clothes category=top season=fall image=\(folder)/quarters.png"])
        #expect(seeded.status == 0, "\(seeded.err)")
        return (folder, folder + "/store")
    }

    /// The half-block lines of an output: each cell's `▀` with the colours set before it.
    static func cells(_ line: Substring) -> [(top: String, bottom: String)] {
        var cells: [(String, String)] = []
        var colours = ("", "")
        for part in line.split(separator: "\u{1B}[", omittingEmptySubsequences: true) {
            guard let end = part.firstIndex(of: "m") else { continue }
            let codes = part[..<end].split(separator: ";").map(String.init)
            if codes.count == 10, codes[0] == "38", codes[5] == "48" {
                colours = (codes[2...4].joined(separator: ","), codes[7...9].joined(separator: ","))
            }
            for character in part[part.index(after: end)...] where character == "▀" { cells.append(colours) }
        }
        return cells
    }

    @Test func showClothesDrawsHalfBlocksInTheExpectedCellsAt80x24() throws {
        let (folder, store) = try Self.seededStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try PseudoTerminal.run(
            BuiltProducts.closet, ["--store", store, "-c", "list clothes", "-c", "show clothes @1"], columns: 80,
            rows: 24, environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"],
            removing: ["NO_COLOR", "TMUX", "KITTY_WINDOW_ID", "TERM_PROGRAM", "LC_TERMINAL", "KONSOLE_VERSION"])
        #expect(run.status == 0, "\(run.output)")
        let drawn = run.output.split(separator: "\r\n").filter { $0.contains("▀") }
        // The list's thumbnail first: a quarter of medium's 48 cells, 12 across, 6 rows down.
        #expect(drawn.prefix(6).map { Self.cells($0).count } == Array(repeating: 12, count: 6))
        let rows = Array(drawn.dropFirst(6))
        // 32×32 pixels fit 80×24 unscaled (48 cells across at medium, 22 rows of two pixels):
        // 32 cells across, 16 rows down.
        #expect(rows.count == 16, "\(run.output.debugDescription)")
        let grid = rows.map(Self.cells)
        #expect(grid.allSatisfy { $0.count == 32 })
        guard grid.count == 16, grid.allSatisfy({ $0.count == 32 }) else { return }
        #expect(grid[0][0] == ("255,0,0", "255,0,0") && grid[0][31] == ("0,255,0", "0,255,0"))
        #expect(grid[7][15] == ("255,0,0", "255,0,0") && grid[7][16] == ("0,255,0", "0,255,0"))
        #expect(grid[8][0] == ("0,0,255", "0,0,255") && grid[15][31] == ("255,255,255", "255,255,255"))
        // The terminal is left as it was: every picture line ends by resetting the colours.
        #expect(rows.allSatisfy { $0.hasSuffix("\u{1B}[0m") })
    }

    @Test func aPipeGetsNoPictureUnlessOneIsAskedFor() throws {
        let (folder, store) = try Self.seededStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor"]
        let piped = try ChildProcess.run(
            BuiltProducts.closet, ["--store", store, "-c", "list clothes", "-c", "show clothes @1"],
            environment: environment)
        #expect(piped.status == 0 && !piped.out.contains("\u{1B}") && piped.out.contains("png 32x32"))
        let asked = try ChildProcess.run(
            BuiltProducts.closet,
            ["--store", store, "--pictures", "blocks", "-c", "list clothes", "-c", "show clothes @1"],
            environment: environment)
        // The list's thumbnail (6 rows), then the picture under show (16).
        #expect(asked.out.split(separator: "\n").filter { $0.contains("▀") }.count == 6 + 16)
        let unknown = try ChildProcess.run(BuiltProducts.closet, ["--pictures", "ascii", "-c", ".pictures"])
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("unknown picture output 'ascii'; use auto, kitty, iterm, sixel, blocks or off"))
    }

    /// Issue 42: the README's offline command, at a terminal that shows pictures, shows the
    /// feed's pictures and not one `picture:` line in place of one: every picture the shipped
    /// recordings' answers name is recorded, and every one decodes.
    @Test func theReadmesOfflineRunShowsEveryPicture() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let home = NSTemporaryDirectory() + "closet-readme-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = try PseudoTerminal.run(
            BuiltProducts.closet,
            [
                "--store", ":memory:", "--replay", root + "/Examples/http", "run", root + "/Examples/photos.closet",
                root + "/Examples/boxoffice.closet",
            ], columns: 100, rows: 40,
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "HOME": home],
            removing: ["NO_COLOR", "TMUX", "KITTY_WINDOW_ID", "TERM_PROGRAM", "LC_TERMINAL", "KONSOLE_VERSION"])
        #expect(run.status == 0)
        #expect(
            !run.output.contains("picture:"),
            "\(run.output.split(separator: "\r\n").filter { $0.contains("picture:") })")
        #expect(run.output.split(separator: "\r\n").filter { $0.contains("▀") }.count > 100)
    }
}
