import AppContract
@testable import BoardConfig
import Testing

/// `display_schedule` and `display_wake_seconds`: the grammar, its errors (each naming its line),
/// and the pure schedule: local wall-clock seconds in, on or off and the next change out.
@Suite struct DisplayScheduleTests {
    /// Local wall-clock seconds of a date and time (`DisplaySchedule`'s time).
    static func at(_ text: String) -> Int { DisplaySchedule.localSeconds(parsing: text)! }

    static let shop = try! DisplaySchedule(parsing: "Mon-Fri 07:00-22:00; Sat 09:00-12:00, 13:00-18:00; holidays 2026-12-25 2027-01-01")

    @Test func localTimesAndWeekdays() {
        #expect(Self.at("1970-01-01T00:00") == 0)
        #expect(Self.at("2026-12-07T06:59") == 1_796_626_740)
        #expect(Self.at("2026-12-07T06:59:30") == 1_796_626_770)
        #expect(DisplaySchedule.weekday(ofDay: 0) == 3)  // 1970-01-01: a Thursday
        #expect(DisplaySchedule.weekday(ofDay: Self.at("2026-12-07T12:00") / 86_400) == 0)  // a Monday
        #expect(DisplaySchedule.weekday(ofDay: -1) == 2)  // 1969-12-31: a Wednesday
        for bad in ["2026-12-07", "2026-12-07T24:00", "2026-02-29T10:00", "2026-12-07T7:00:5", "2026-12-07 07:00", "x"] {
            #expect(DisplaySchedule.localSeconds(parsing: bad) == nil, "\(bad)")
        }
        #expect(DisplaySchedule.localSeconds(parsing: "2028-02-29T10:00") != nil)
    }

    @Test func insideAndOutsideTheHours() {
        let s = Self.shop
        // Monday 2026-12-07.
        #expect(!s.isOn(atLocalSeconds: Self.at("2026-12-07T06:59:59")))
        #expect(s.isOn(atLocalSeconds: Self.at("2026-12-07T07:00")))
        #expect(s.isOn(atLocalSeconds: Self.at("2026-12-07T21:59:59")))
        #expect(!s.isOn(atLocalSeconds: Self.at("2026-12-07T22:00")))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-07T06:59")) == Self.at("2026-12-07T07:00"))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-07T07:00")) == Self.at("2026-12-07T22:00"))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-07T22:00")) == Self.at("2026-12-08T07:00"))
        // Saturday's two periods and its lunch break; Sunday is off: Friday night to Saturday 09:00,
        // Saturday 18:00 to Monday 07:00.
        #expect(s.isOn(atLocalSeconds: Self.at("2026-12-12T11:59")) && !s.isOn(atLocalSeconds: Self.at("2026-12-12T12:30")))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-11T22:00")) == Self.at("2026-12-12T09:00"))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-12T12:00")) == Self.at("2026-12-12T13:00"))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-12T18:00")) == Self.at("2026-12-14T07:00"))
        #expect(!s.isOn(atLocalSeconds: Self.at("2026-12-13T12:00")))
    }

    @Test func aPeriodPastMidnightBelongsToItsFirstDay() throws {
        let bar = try DisplaySchedule(parsing: "Fri-Sat 18:00-02:00; sun 10:00-24:00")
        // Friday 2026-12-11 18:00 to Saturday 02:00, Saturday 18:00 to Sunday 02:00, then Sunday
        // 10:00 to midnight; Thursday night has no tail.
        #expect(!bar.isOn(atLocalSeconds: Self.at("2026-12-11T01:00")))
        #expect(bar.isOn(atLocalSeconds: Self.at("2026-12-12T01:59:59")))
        #expect(!bar.isOn(atLocalSeconds: Self.at("2026-12-12T02:00")))
        #expect(bar.nextChange(afterLocalSeconds: Self.at("2026-12-11T20:00")) == Self.at("2026-12-12T02:00"))
        #expect(bar.isOn(atLocalSeconds: Self.at("2026-12-13T01:00")))
        #expect(bar.nextChange(afterLocalSeconds: Self.at("2026-12-13T02:00")) == Self.at("2026-12-13T10:00"))
        #expect(bar.nextChange(afterLocalSeconds: Self.at("2026-12-13T10:00")) == Self.at("2026-12-14T00:00"))
        // A period ending at 24:00 and the next day's starting at 00:00 are one stretch.
        let joined = try DisplaySchedule(parsing: "Mon 20:00-24:00; Tue 00:00-06:00")
        #expect(joined.nextChange(afterLocalSeconds: Self.at("2026-12-07T21:00")) == Self.at("2026-12-08T06:00"))
        // Every day, all day: nothing ever changes.
        #expect(try DisplaySchedule(parsing: "daily 00:00-24:00").nextChange(afterLocalSeconds: 0) == nil)
    }

    @Test func aHolidayIsOffAllDayAndCutsTheNightBefore() throws {
        let s = Self.shop
        // Friday 2026-12-25 is a holiday: off all day, back on Saturday at 09:00.
        #expect(!s.isOn(atLocalSeconds: Self.at("2026-12-25T12:00")))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-24T12:00")) == Self.at("2026-12-24T22:00"))
        #expect(s.nextChange(afterLocalSeconds: Self.at("2026-12-24T22:00")) == Self.at("2026-12-26T09:00"))
        let late = try DisplaySchedule(parsing: "daily 20:00-03:00; holidays 2026-12-25")
        #expect(late.isOn(atLocalSeconds: Self.at("2026-12-24T23:59")))
        #expect(!late.isOn(atLocalSeconds: Self.at("2026-12-25T01:00")), "the night before ends at the holiday's midnight")
        #expect(!late.isOn(atLocalSeconds: Self.at("2026-12-26T01:00")), "the holiday's own night does not happen")
        #expect(late.nextChange(afterLocalSeconds: Self.at("2026-12-24T21:00")) == Self.at("2026-12-25T00:00"))
        #expect(late.nextChange(afterLocalSeconds: Self.at("2026-12-25T00:00")) == Self.at("2026-12-26T20:00"))
    }

    @Test func daysListsRangesAndCase() throws {
        let s = try DisplaySchedule(parsing: "mon,WED,Fri 08:00-09:00;Fri-Mon 10:00-11:00")
        #expect(s.days.map(\.count) == [2, 0, 1, 0, 2, 1, 1])
        #expect(s.days[0] == [DisplaySchedule.Period(start: 480, end: 540), DisplaySchedule.Period(start: 600, end: 660)])
        #expect(try DisplaySchedule(parsing: "Sun 22:00-06:00").days[6] == [DisplaySchedule.Period(start: 1320, end: 1800)])
        #expect(try DisplaySchedule(parsing: "daily 09:00-17:00").days.allSatisfy { $0.count == 1 })
    }

    static func message(_ text: String) -> String {
        do {
            _ = try BoardConfig(parsing: text, source: "board.conf")
            return "parsed"
        } catch { return error.description }
    }

    @Test func theConfigKeys() throws {
        let c = try BoardConfig(
            parsing: "app = catalog\ndisplay_schedule = \"Mon-Fri 07:00-22:00; Sat 09:00-18:00\"\ndisplay_wake_seconds = 30\n")
        #expect(c.displaySchedule == (try DisplaySchedule(parsing: "Mon-Fri 07:00-22:00; Sat 09:00-18:00")))
        #expect(c.displayWakeSeconds == 30)
        #expect(c.place(of: "display_schedule") == "config:2")
        let plain = try BoardConfig(parsing: "")
        #expect(plain.displaySchedule == nil && plain.displayWakeSeconds == 60)
        #expect(BoardConfig.keys.contains("display_schedule") && BoardConfig.keys.contains("display_wake_seconds"))
    }

    @Test func badSchedulesNameTheirLine() {
        let e = "(e.g. Mon-Fri 07:00-22:00; Sat 09:00-18:00; holidays 2026-12-25)"
        let cases: [(String, String)] = [
            ("Mon-Fry 07:00-22:00", "days (Mon to Sun, Mon-Fri, daily) or a period HH:MM-HH:MM, not 'Mon-Fry'"),
            ("Mon 07:00-25:00", "days (Mon to Sun, Mon-Fri, daily) or a period HH:MM-HH:MM, not '07:00-25:00'"),
            ("Mon 7-22", "days (Mon to Sun, Mon-Fri, daily) or a period HH:MM-HH:MM, not '7-22'"),
            ("Mon-Fri", "a period HH:MM-HH:MM after 'Mon-Fri'"),
            ("07:00-22:00", "days (Mon to Sun, Mon-Fri, daily) before '07:00-22:00'"),
            ("Mon 07:00-12:00 Tue 13:00-14:00", "the days before the times, not 'Tue' after them"),
            ("Mon 07:00-22:00;; Sat 09:00-18:00", "a rule between ';' (DAYS HH:MM-HH:MM, or holidays DATES)"),
            ("Mon 07:00-22:00; holidays", "dates YYYY-MM-DD after 'holidays'"),
            ("Mon 07:00-22:00; holidays 2026-02-30", "a date YYYY-MM-DD, not '2026-02-30'"),
            ("holidays 2026-12-25", "opening hours as well as holidays, e.g. Mon-Fri 07:00-22:00"),
        ]
        for (value, expected) in cases {
            #expect(
                Self.message("# hours\n\ndisplay_schedule = \(value)\n")
                    == "board.conf:3: bad value '\(value)' for key 'display_schedule': expected \(expected) \(e)", "\(value)")
        }
        #expect(
            Self.message("app = x\ndisplay_wake_seconds = 2")
                == "board.conf:2: bad value '2' for key 'display_wake_seconds': expected seconds from 5 to 86400 (a day)")
        #expect(
            Self.message("display_wake_seconds = 100000")
                == "board.conf:1: bad value '100000' for key 'display_wake_seconds': expected seconds from 5 to 86400 (a day)")
    }
}
