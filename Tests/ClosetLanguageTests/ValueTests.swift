import ClosetCore
import ClosetNetwork
import Foundation
import Testing

@testable import ClosetLanguage

@Suite struct TimestampTests {
    @Test func parsesDatesAndTimes() {
        #expect(Timestamp.parse("2024-01-01") == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(Timestamp.parse("2024-01-01T00:00:01Z") == Date(timeIntervalSince1970: 1_704_067_201))
        #expect(Timestamp.parse("2024-01-01T09:00:00+09:00") == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(Timestamp.parse("2024-01-01T00:00:00.5Z") == Date(timeIntervalSince1970: 1_704_067_200.5))
        #expect(Timestamp.parse("2024-02-29") != nil)
        #expect(Timestamp.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    }

    @Test func rejectsWhatIsNotADate() {
        for text in [
            "2023-02-29", "2024-13-01", "2024-1-1", "2024-01-01T10:00", "2024-01-01T25:00:00Z", "yesterday", "",
            "2024-01-01Tx",
        ] {
            #expect(Timestamp.parse(text) == nil, "\(text)")
        }
    }

    /// Instants from 1583 (Foundation's calendar is Julian before the Gregorian reform; closet's
    /// is proleptic Gregorian, which `formatsRoundTrip` covers) to 9999 are written as
    /// Foundation's calendar says they are.
    @Test func formatsAsTheGregorianCalendarSays() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let earliest = Int64(Timestamp.parse("1583-01-01")!.timeIntervalSince1970 * 1000)
        let latest = Int64((Timestamp.parse("9999-12-31T23:59:59.999Z")!.timeIntervalSince1970 * 1000).rounded())
        var seed: UInt64 = 5
        for _ in 0..<3000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let millis = earliest + Int64(seed >> 1) % (latest - earliest)
            let rounded = seed & 1 == 0 ? millis - millis % 1000 : millis
            let date = Date(timeIntervalSince1970: Double(rounded) / 1000)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let fraction = ((rounded % 1000) + 1000) % 1000
            let expected =
                String(
                    format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
                    parts.minute!, parts.second!) + (fraction == 0 ? "" : String(format: ".%03d", fraction)) + "Z"
            #expect(Timestamp.format(date) == expected)
            #expect(Timestamp.parse(expected) == date)
        }
    }

    @Test func formatsRoundTrip() {
        for text in [
            "2024-01-01T00:00:00Z", "1999-12-31T23:59:59.250Z", "2400-02-29T12:00:00Z", "1900-03-01T00:00:00Z",
            "0000-01-01T00:00:00Z", "0001-03-01T00:00:00.001Z", "1582-10-10T10:10:10Z", "9999-12-31T23:59:59.999Z",
        ] {
            #expect(Timestamp.format(Timestamp.parse(text)!) == text)
        }
    }
}

@Suite struct ByteSizeTests {
    @Test func unitsArePowersOf1024() {
        #expect(ByteSize.parse("200MB") == 200 * 1024 * 1024)
        #expect(ByteSize.parse("3kb") == 3072)
        #expect(ByteSize.parse("12") == 12)
        #expect(ByteSize.parse("1GB") == 1 << 30)
        #expect(ByteSize.parse("7B") == 7)
    }

    @Test func refusesGarbageAndOverflow() {
        #expect(ByteSize.parse("MB") == nil)
        #expect(ByteSize.parse("-1MB") == nil)
        #expect(ByteSize.parse("99999999999999999GB") == nil)
        #expect(ByteSize.parse("1TB") == nil)
    }

    @Test func formatsWithTheLargestExactUnit() {
        #expect(ByteSize.format(200 * 1024 * 1024) == "200MB")
        #expect(ByteSize.format(1500) == "1500B")
    }
}

@Suite struct SuggestionTests {
    @Test func typosAndPrefixes() {
        #expect(Suggestion.closest(to: "lsit", among: ["list", "add"]) == "list")
        #expect(Suggestion.closest(to: "clotes", among: ["clothes", "style"]) == "clothes")
        #expect(Suggestion.closest(to: "fil", among: ["filter", "list"]) == "filter")
        #expect(Suggestion.closest(to: "가으", among: ["가을", "겨울"]) == "가을")
        #expect(Suggestion.closest(to: "dance", among: ["list", "add"]) == nil)
        #expect(Suggestion.closest(to: "list", among: ["list"]) == nil)
    }
}

@Suite struct OutputTests {
    @Test func wideCharactersTakeTwoCells() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("가을") == 4)
        #expect(TextWidth.of("🧥") == 2)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.truncate("가나다라", toCells: 5) == "가나…")
    }

    @Test func tableAlignsHangul() {
        let text = TableRenderer().render(Grid(columns: ["a", "b"], rows: [["가을", "x"], ["fall", "y"]]))
        #expect(text == "a     b\n----  -\n가을  x\nfall  y\n")
    }

    @Test func boxTableFitsANarrowTerminal() {
        let grid = Grid(
            columns: ["id", "description"], rows: [["1", "a very long description indeed, longer still"]],
            isListing: true)
        let text = TableRenderer(boxDrawing: true, maxWidth: 32).render(grid)
        #expect(text.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 32 })
        #expect(text.contains("│ 1  │ a very long descriptio… │"))
    }

    /// Issue 10 (5): the widest columns shrink; short ones (ids, instants) are never cut; when
    /// nothing fits, the rows are shown a field per line, whole.
    @Test func narrowTerminalsShrinkTheWidestColumnsThenGoVertical() {
        let long = "a long long description of a very warm navy wool knit sweater for cold days"
        let grid = Grid(
            columns: ["#", "id", "category", "description", "created"],
            rows: [
                ["1", "E220A839", "top", long, "2024-01-01T00:00:00Z"], ["2", "06C45D18", "bottom", "jeans", "2024"],
            ],
            isListing: true)
        let wide = TableRenderer(boxDrawing: true, maxWidth: 80).render(grid)
        #expect(wide.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 80 })
        #expect(wide.contains("E220A839") && wide.contains("2024-01-01T00:00:00Z") && wide.contains("…"))
        let narrow = TableRenderer(boxDrawing: true, maxWidth: 40).render(grid)
        #expect(!narrow.contains("…") && !narrow.contains("┌"))
        #expect(narrow.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 40 })
        #expect(narrow.contains("id           E220A839\n"))
        #expect(narrow.hasSuffix("(2 rows)\n"))
        // Every word of the long description is there, in order.
        let shown = narrow.split(separator: "\n").filter { $0.hasPrefix("description") || $0.hasPrefix("    ") }
            .map { $0.dropFirst(13) }.joined(separator: " ")
        #expect(shown.hasPrefix(long))
    }

    /// Issue 10 (4): one entity at a terminal is a field per line, wrapped, never cut.
    @Test func oneEntityAtATerminalIsShownAFieldPerLine() {
        let grid = Grid(
            columns: ["id", "clothes"],
            rows: [["1B39896A", "top: knit, bottom: jeans, shoes: boots, accessory: scarf"]])
        let text = TableRenderer(boxDrawing: true, maxWidth: 40).render(grid)
        #expect(
            text == "id       1B39896A\nclothes  top: knit, bottom: jeans,\n         shoes: boots, accessory: scarf\n")
        // Off a terminal (no width) it stays the plain table goldens pin.
        #expect(TableRenderer().render(grid).hasPrefix("id        clothes"))
    }

    @Test func wrappingBreaksAtBlanksAndCountsCells() {
        #expect(TextWidth.wrap("aaa bbb ccc", toCells: 7) == ["aaa bbb", "ccc"])
        #expect(TextWidth.wrap("abcdefghij", toCells: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWidth.wrap("가나다라", toCells: 5) == ["가나", "다라"])
        #expect(TextWidth.wrap("", toCells: 5).isEmpty)
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        #expect(
            CSVRenderer.render(Grid(columns: ["a", "b"], rows: [["x,y", "say \"hi\""], ["plain", "line\nbreak"]]))
                == "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\nplain,\"line\nbreak\"\r\n")
    }

    @Test func jsonEscapesControlCharactersAndKeepsHangul() {
        #expect(JSONRenderer.string("가\"\\\n\u{01}") == "\"가\\\"\\\\\\n\\u0001\"")
    }

    @Test func lineModeRightAlignsKeys() {
        #expect(
            LineRenderer.render(Grid(columns: ["id", "season"], rows: [["1", "fall"], ["2", "all"]]))
                == "    id = 1\nseason = fall\n\n    id = 2\nseason = all\n")
    }
}

@Suite struct DiagnosticRendererTests {
    @Test func caretSitsUnderTheWordCountingHangulAsTwoCells() {
        let source = StatementSource("add clothes category=가을 season=fal")
        let bytes = Array(source.text.utf8)
        let start = bytes.count - 3
        let text = DiagnosticRenderer.render(
            Diagnostic("unknown-name", "unknown season 'fal'", at: SourceRange(start, bytes.count), suggestion: "fall"),
            source: source, origin: "seed.closet")
        #expect(
            text == """
                seed.closet:1:32: error: unknown season 'fal'; did you mean 'fall'?
                add clothes category=가을 season=fal
                                                 ^^^

                """)
    }

    @Test func continuationLinesReportTheirOwnLine() {
        let source = StatementSource(lines: ["add clothes \\", "  season=x"], firstLine: 10)
        let offset = Array(source.text.utf8).count - 1
        let text = DiagnosticRenderer.render(
            Diagnostic("test", "bad", at: SourceRange(offset, offset + 1)), source: source, origin: "f")
        #expect(text == "f:11:10: error: bad\n  season=x\n         ^\n")
    }

    @Test func noOriginAtThePrompt() {
        let text = DiagnosticRenderer.render(
            Diagnostic("test", "bad", at: SourceRange(0, 3)), source: StatementSource("abc"), origin: nil)
        #expect(text == "error: bad\nabc\n^^^\n")
    }
}

@Suite struct TimestampRangeTests {
    @Test func digitsPastTheMillisecondAreCutNotRoundedIntoTheNextYear() throws {
        let last = try #require(Timestamp.parse("9999-12-31T23:59:59.9999Z"))
        #expect(Timestamp.format(last) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.parse(Timestamp.format(last)) == last)
        #expect(
            Timestamp.format(try #require(Timestamp.parse("2024-05-17T09:30:00.1239+00:00")))
                == "2024-05-17T09:30:00.123Z")
    }

    @Test func instantsOutsideTheYearsFormatWritesAreRefused() {
        #expect(Timestamp.parse("9999-12-31T23:00:00-02:00") == nil)
        #expect(Timestamp.parse("0000-01-01T00:30:00+01:00") == nil)
        #expect(Timestamp.parse("0000-01-01T00:00:00Z").map(Timestamp.format) == "0000-01-01T00:00:00Z")
    }
}

/// Issue 25, item 9: the JSON reader holds to RFC 8259's grammar (every import goes through it).
@Suite struct StrictJSONTests {
    func reads(_ value: String) -> Bool { (try? JSONReader.rows("[" + value + "]")) != nil }

    @Test func theGrammarsNumbersAndStringsAreAccepted() {
        for value in [
            "0", "-0", "7", "-12", "1.5", "-1.5e10", "1E+2", "1e-2", "0.25", "123456789012345678901234567890",
            #""""#, #""tab\tand \"quote\"""#, #""\u00e9\u00E9""#, #""\ud83d\ude00""#, #""한글""#, "true", "null",
        ] {
            #expect(reads(value), "\(value)")
        }
    }

    @Test func whatTheRFCForbidsIsRefused() {
        for value in [
            "01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "1.2.3", "--1", "0x10", "1e400", "-1e400", "NaN",
            "Infinity", "\"raw\ttab\"", "\"bell\u{07}\"", #""\u12G4""#, #""\u+123""#, #""\ud800""#, #""\udc00x""#,
            #""\x41""#,
        ] {
            #expect(!reads(value), "\(value)")
        }
    }

    @Test func aMultipartNameCannotInjectAHeader() {
        let body = HTTPBody.multipart([
            .file("images[]", filename: "a\".png\r\nX-Injected: yes", contentType: "image/png", data: Data([1]))
        ]).encoded(boundary: "b").bytes
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("filename=\"a%22.png%0D%0AX-Injected: yes\""), "\(text)")
        #expect(!text.contains("\r\nX-Injected"))
    }
}
