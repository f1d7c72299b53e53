import ArgumentParser
import BoardConfig
import Runtime

/// `--display-schedule` and `--display-wake-seconds`, the same on `board` and `run` (headless,
/// where the schedule is read on the virtual clock from `--start-time`).
package struct ScheduleOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Opening hours, local time: the screen is off outside them and on holidays, and a touch wakes it (display_schedule).",
            valueName: "'Mon-Fri 07:00-22:00; Sat 09:00-18:00; holidays 2026-12-25'"))
    package var displaySchedule: String?
    @Option(help: "Seconds a touch outside the opening hours keeps the screen on after the last input (5 to 86400; default 60).")
    package var displayWakeSeconds: Double?

    package init() {}

    package func validate() throws { _ = try parsed() }

    /// The schedule and the wake time these options give, checked; nil for what they leave out.
    package func parsed() throws -> (schedule: DisplaySchedule?, wakeSeconds: Double?) {
        var schedule: DisplaySchedule?
        if let displaySchedule {
            do { schedule = try DisplaySchedule(parsing: displaySchedule) } catch {
                throw ValidationError("--display-schedule: \(error)")
            }
        }
        let wake = try checked(displayWakeSeconds, "--display-wake-seconds must lie in 5...86400", BoardConfig.displayWakeRange.contains)
        return (schedule, wake)
    }

    /// `cfg` with these options over its `display_schedule` and `display_wake_seconds`.
    package func merged(into cfg: inout BoardConfig) throws {
        let (schedule, wake) = try parsed()
        if let schedule { cfg.displaySchedule = schedule }
        if let wake { cfg.displayWakeSeconds = wake }
    }
}
