/// When the panel is on: opening hours for the days of the week, and holidays on which it stays
/// off all day (the board config's `display_schedule`). Outside the hours the board switches
/// the panel off as `idle_blank_seconds` does, and a touch wakes it for `display_wake_seconds`.
///
/// The text is rules separated by `;`:
///
/// - `DAYS PERIOD...`: the days are `Mon` to `Sun` (any case), a range `Mon-Fri` (`Fri-Mon`
///   wraps over the weekend), a list `Mon,Wed,Fri`, or `daily`; then one or more periods
///   `HH:MM-HH:MM`, separated by spaces or commas. A period that ends at or before it starts runs
///   past midnight into the next day (`Fri 18:00-02:00` is on until Saturday 02:00); `24:00`
///   ends a period at midnight. Days that no rule names are off; rules naming the same day add
///   their periods.
/// - `holidays DATE...`: dates `YYYY-MM-DD` on which the panel is off from midnight to
///   midnight, and the periods of the day before end at midnight.
///
/// For example `Mon-Fri 07:00-12:00 13:00-22:00; Sat 09:00-18:00; holidays 2026-12-25 2027-01-01`.
///
/// Pure: time is passed in as local wall-clock seconds, seconds since 1970-01-01 00:00 in the
/// local time zone (Unix time plus the zone's offset, which a board reads with `localtime_r`'s
/// `tm_gmtoff`: `localWallSeconds()`), so a daylight-saving change is the caller's offset, and a
/// headless run computes the schedule from its virtual clock.
package struct DisplaySchedule: Hashable, Sendable {
    /// Minutes after the day's midnight: on from `start` until `end`; `end` beyond 1440 runs
    /// into the next day.
    package struct Period: Hashable, Sendable {
        package var start: Int
        package var end: Int
        package init(start: Int, end: Int) { self.start = start; self.end = end }
    }

    /// The periods of each day of the week, Monday first.
    package private(set) var days: [[Period]] = Array(repeating: [], count: 7)
    /// Holidays, as days since 1970-01-01.
    package private(set) var holidays: Set<Int> = []

    package static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// How far ahead `nextChange` looks: a year and a little, past a year's holidays.
    static let horizonDays = 400

    /// Parses a schedule; the error says what was expected where (the config names the line).
    package init(parsing text: String) throws(DisplayScheduleError) {
        var hasHours = false
        for rule in text.split(separator: ";", omittingEmptySubsequences: false) {
            let words = rule.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            guard let first = words.first else { throw DisplayScheduleError("a rule between ';' (DAYS HH:MM-HH:MM, or holidays DATES)") }
            if first.lowercased() == "holidays" {
                guard words.count > 1 else { throw DisplayScheduleError("dates YYYY-MM-DD after 'holidays'") }
                for word in words.dropFirst() {
                    guard let day = Self.dayNumber(date: word) else { throw DisplayScheduleError("a date YYYY-MM-DD, not '\(word)'") }
                    holidays.insert(day)
                }
            } else {
                try addHours(words)
                hasHours = true
            }
        }
        guard hasHours else { throw DisplayScheduleError("opening hours as well as holidays, e.g. Mon-Fri 07:00-22:00") }
    }

    /// One rule of days and periods.
    private mutating func addHours(_ words: [String]) throws(DisplayScheduleError) {
        var weekdays: [Int] = []
        var periods: [Period] = []
        for word in words {
            if let period = Self.period(word) {
                periods.append(period)
            } else if let some = Self.weekdays(word) {
                guard periods.isEmpty else { throw DisplayScheduleError("the days before the times, not '\(word)' after them") }
                weekdays += some
            } else {
                throw DisplayScheduleError("days (Mon to Sun, Mon-Fri, daily) or a period HH:MM-HH:MM, not '\(word)'")
            }
        }
        guard !weekdays.isEmpty else { throw DisplayScheduleError("days (Mon to Sun, Mon-Fri, daily) before '\(words[0])'") }
        guard !periods.isEmpty else { throw DisplayScheduleError("a period HH:MM-HH:MM after '\(words.joined(separator: " "))'") }
        for d in Set(weekdays) { days[d] += periods }
    }

    /// `Mon`, `Mon-Fri`, `Fri-Mon` or `daily` as days of the week (Monday 0); nil for another word.
    static func weekdays(_ word: String) -> [Int]? {
        let lower = word.lowercased()
        if lower == "daily" { return Array(0..<7) }
        let ends = lower.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(ends.count), let from = dayNames.firstIndex(of: String(ends[0])),
            let to = dayNames.firstIndex(of: String(ends[ends.count - 1]))
        else { return nil }
        return (0...((to - from + 7) % 7)).map { (from + $0) % 7 }
    }

    /// `HH:MM-HH:MM` as a period; an end at or before the start is the next day's.
    static func period(_ word: String) -> Period? {
        let times = word.split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let start = minutes(times[0]), start < 1440, let end = minutes(times[1]) else { return nil }
        return Period(start: start, end: end > start ? end : end + 1440)
    }

    /// `HH:MM` (hours 0 to 23, or 24:00) as minutes after midnight.
    static func minutes(_ text: Substring) -> Int? {
        let hm = text.split(separator: ":", omittingEmptySubsequences: false)
        guard hm.count == 2, (1...2).contains(hm[0].count), hm[1].count == 2, hm.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let h = Int(hm[0]), let m = Int(hm[1]), (0...59).contains(m), (0...23).contains(h) || (h == 24 && m == 0)
        else { return nil }
        return h * 60 + m
    }

    /// `YYYY-MM-DD` as days since 1970-01-01; nil for anything else or a date that does not exist.
    static func dayNumber(date: String) -> Int? {
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m)
        else { return nil }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[m - 1]).contains(d) else { return nil }
        return daysFromCivil(year: y, month: m, day: d)
    }

    /// A local date and time `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` as local wall-clock
    /// seconds (a headless run's `--start-time`); nil for anything else.
    package static func localSeconds(parsing text: String) -> Int? {
        let halves = text.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2, let day = dayNumber(date: String(halves[0])) else { return nil }
        let clock = halves[1].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), let minute = minutes(clock[0...1].joined(separator: ":")[...]), minute < 1440 else {
            return nil
        }
        var second = 0
        if clock.count == 3 {
            guard clock[2].count == 2, clock[2].allSatisfy({ $0.isASCII && $0.isNumber }), let s = Int(clock[2]), s < 60 else { return nil }
            second = s
        }
        return day * 86_400 + minute * 60 + second
    }

    /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day of the week of a day number, Monday 0 (1970-01-01 was a Thursday).
    package static func weekday(ofDay day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    /// The on-intervals (local seconds, end excluded) that start on `day`: none on a holiday, and
    /// one that runs into a holiday ends at midnight.
    func intervals(ofDay day: Int) -> [(start: Int, end: Int)] {
        guard !holidays.contains(day) else { return [] }
        let midnight = day * 86_400
        let cut = holidays.contains(day + 1) ? 1440 : 2880
        return days[Self.weekday(ofDay: day)].map { (midnight + $0.start * 60, midnight + min($0.end, cut) * 60) }
    }

    /// Whether the panel is on at `seconds`, local wall-clock seconds since 1970-01-01 00:00.
    package func isOn(atLocalSeconds seconds: Int) -> Bool {
        let day = seconds.floorDivided(by: 86_400)
        return (intervals(ofDay: day) + intervals(ofDay: day - 1)).contains { $0.start <= seconds && seconds < $0.end }
    }

    /// The first local second after `seconds` at which `isOn` changes; nil when it does not
    /// within `horizonDays`.
    package func nextChange(afterLocalSeconds seconds: Int) -> Int? {
        let day = seconds.floorDivided(by: 86_400)
        let now = isOn(atLocalSeconds: seconds)
        var edges: [Int] = []
        for d in (day - 1)...(day + Self.horizonDays) {
            for i in intervals(ofDay: d) {
                if i.start > seconds { edges.append(i.start) }
                if i.end > seconds { edges.append(i.end) }
            }
        }
        for edge in Set(edges).sorted() where isOn(atLocalSeconds: edge) != now { return edge }
        return nil
    }
}

/// Why the screen is on or off: the state JSON's `display.reason`.
package enum ScreenReason: String, Sendable {
    /// On, in the display schedule's hours (or with no schedule).
    case on
    /// On outside the hours: a touch (or the remote API) woke it for `display_wake_seconds`.
    case woken
    /// Off: outside the display schedule's hours, or on a holiday.
    case schedule
    /// Off: `idle_blank_seconds` without input.
    case idle
    /// Off: the remote API's `POST /display` switched it off.
    case remote
}

/// What a display schedule should have been, where it was not.
package struct DisplayScheduleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was expected, and what was found.
    package let expected: String
    init(_ expected: String) { self.expected = expected }
    package var description: String { "expected \(expected)" }
}

extension Int {
    /// The quotient rounded down (towards minus infinity), for times before 1970.
    func floorDivided(by d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
