/// The display schedule as a frame loop follows it: the schedule, the local wall time at a loop
/// time, and when to read it next. The schedule itself is pure (`DisplaySchedule`); the wall
/// clock is read here, at the edge, through `localTime`.
package struct ScreenSchedule {
    /// Opening hours (`display_schedule`); nil: the screen is on whenever idle blanking lets it.
    package var schedule: DisplaySchedule? { didSet { due = nil } }
    /// Local wall-clock seconds (`DisplaySchedule`'s time) at a loop time: a board's wall clock
    /// (`localWallSeconds`), or a headless run's start time plus its virtual time.
    package var localTime: (Double) -> Double = { _ in localWallSeconds() }
    /// Seconds after which the wall clock is read again however far off the schedule's next
    /// change is: a board's clock may be set meanwhile (NTP after boot, a new time zone). nil:
    /// only at the changes (a virtual clock, which nobody sets).
    package var recheckSeconds: Double?
    /// The loop time at which the schedule is next read; nil: at the first chance.
    var due: Double?

    package init() {}

    /// Whether the hours are open at loop time `t`, and the loop time at which to look again.
    func read(at t: Double) -> (open: Bool, next: Double?)? {
        guard let schedule else { return nil }
        let local = localTime(t)
        guard local.isFinite, abs(local) < 1e15 else { return nil }
        let seconds = Int(local.rounded(.down))
        let change = schedule.nextChange(afterLocalSeconds: seconds).map { t + Double($0) - local }
        let recheck = recheckSeconds.map { t + $0 }
        let next = [change, recheck].compactMap { $0 }.min()
        return (schedule.isOn(atLocalSeconds: seconds), next)
    }
}

extension FrameDriver {
    /// Follows the display schedule and blanks an idle screen, at `t`. Call it when the display
    /// can take a frame (a black frame may be presented). The schedule is first read after the
    /// first frame, so a board started outside the hours still shows its app once (and tells
    /// systemd it is ready).
    package func updateScreen(at t: Double) {
        if presentedFrames > 0, t >= schedule.due ?? -.infinity, let reading = schedule.read(at: t) {
            schedule.due = reading.next ?? .infinity
            if reading.open == blanking.isOutsideHours {
                blanking.isOutsideHours = !reading.open
                if reading.open {
                    if !isScreenOn { setScreen(on: true, at: t) }
                } else if isScreenOn {
                    turnScreenOff(at: t, reason: .schedule)
                } else {
                    blanking.blank(.schedule)
                }
            }
        }
        if let due = blanking.blankDue, t >= due { turnScreenOff(at: t, reason: blanking.isOutsideHours ? .schedule : .idle) }
    }

    /// The earliest loop time at which `updateScreen` has something to do: the idle blank, or
    /// the schedule's next reading (0, long past, when it has not been read yet).
    package var screenDue: Double? {
        let reading = schedule.schedule != nil && presentedFrames > 0 ? schedule.due ?? 0 : nil
        let due = min(blanking.blankDue ?? .infinity, reading ?? .infinity)
        return due.isFinite ? due : nil
    }

    /// Why the screen is on or off now (the state JSON's `display.reason`).
    package var screenReason: ScreenReason {
        isScreenOn ? (blanking.isOutsideHours ? .woken : .on) : blanking.offReason
    }
}

extension FrameDriver {
    /// Follows `schedule` (none: nothing to follow), reading the local time with `localTime`;
    /// a touch outside the hours wakes the screen for `wakeSeconds` after the last input.
    package func follow(
        _ schedule: DisplaySchedule?, wakeSeconds: Double, localTime: @escaping (Double) -> Double, recheckSeconds: Double?
    ) {
        blanking.wakeSeconds = wakeSeconds
        guard let schedule else { return }
        self.schedule.schedule = schedule
        self.schedule.localTime = localTime
        self.schedule.recheckSeconds = recheckSeconds
    }
}
