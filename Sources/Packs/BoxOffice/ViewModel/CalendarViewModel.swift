import Foundation

/// The calendar (reference §2.5): days from 2003-11-11 to yesterday, writing the chosen day
/// into the ranking screen's shared current date.
package final class CalendarViewModel {
    package let currentDate: Observable<String>
    private let now: Date

    package init(currentDate: Observable<String>, now: Date) {
        self.currentDate = currentDate
        self.now = now
    }

    /// `2003-11-11 ... yesterday`, as `yyyy-MM-dd` (which sorts as dates do); nil when the
    /// clock is before the first day (no day to choose).
    package var availableDateRange: ClosedRange<String>? {
        let last = BoxOfficeCalendar.yesterday(now: now)
        return last >= BoxOfficeCalendar.firstDay ? BoxOfficeCalendar.firstDay...last : nil
    }

    package var currentDateComponents: (year: Int, month: Int, day: Int)? {
        guard let parts = currentDate.value?.split(separator: "-").compactMap({ Int($0) }), parts.count == 3 else {
            return nil
        }
        return (parts[0], parts[1], parts[2])
    }

    package func setCurrentDate(_ date: Date) { currentDate.value = BoxOfficeCalendar.day(of: date) }
}
