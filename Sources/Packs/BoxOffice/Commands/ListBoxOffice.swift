import ClosetCore
import ClosetLanguage
import Foundation

/// `list boxoffice [date=<yyyy-mm-dd>]`: the ranking screen for a day (yesterday by the
/// session clock unless a date is given), from KOBIS.
enum ListBoxOffice {
    static let spec = CommandSpec(
        path: ["list", "boxoffice"],
        summary: "list a day's box office ranking (default yesterday)",
        keys: [
            KeySpec("date", .date, "the day, 2003-11-11 to yesterday (the app's calendar)"),
            KeySpec(
                "day", .vocabulary(RankingDay.info, many: false),
                "the day before (전날) or after (다음날) the ranking listed last"),
        ],
        notes: ["Rows: rank, movie code, title, today's and total audience, the change (신작, ⏶N, ⏷N, -), open date."],
        examples: [
            "list boxoffice", "list boxoffice date=2012-01-01", "list boxoffice day=previous",
            "list 박스오피스 date=2024-03-01",
        ],
        lists: true,
        run: { invocation in
            let state = try invocation.state(BoxOfficeState.self)
            let day = try day(invocation, state)
            let items = try state.daily(day)
            // The screen's title is the day it lists (the app's navigation title).
            let shown = day ?? BoxOfficeCalendar.yesterday(now: state.now())
            return .listing(
                BoxOfficePack.ranking, items.map { .opaque($0.movieCode) },
                caption: .localized("box office of \(shown)", korean: "\(shown) 박스오피스")
            ) { items.map(BoxOfficeRecords.record) }
        })

    /// The day `date=` or `day=` asks for, checked against the app's calendar; nil for yesterday.
    static func day(_ invocation: Invocation, _ state: BoxOfficeState) throws(Diagnostic) -> String? {
        let last = BoxOfficeCalendar.yesterday(now: state.now())
        var asked: String
        if let step = invocation.value(RankingDay.self, "day") {
            if let date = invocation.argument("date") {
                throw Diagnostic.dayAndDate(at: date.range)
            }
            // From the day listed last (yesterday's ranking before any).
            let shown = state.shownDay ?? last
            asked = BoxOfficeCalendar.day(shown, plus: step == .previous ? -1 : 1) ?? shown
            guard asked >= BoxOfficeCalendar.firstDay, asked <= last else {
                throw Diagnostic.noDayBeyond(shown, step == .previous, at: invocation.argument("day")?.range)
            }
            return asked
        }
        guard let date = invocation.date("date") else { return nil }
        asked = String(Timestamp.format(date).prefix(10))
        // Compared one side at a time: with the clock set before the first day, there is no range.
        guard asked >= BoxOfficeCalendar.firstDay, asked <= last else {
            throw Diagnostic.dateOutOfRange(asked, last: last, at: invocation.argument("date")?.range)
        }
        return asked
    }
}
