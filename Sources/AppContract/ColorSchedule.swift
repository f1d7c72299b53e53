/// Light or dark: which of the window's two themes its views draw with (`Window.colorScheme`).
public enum ColorScheme: String, Hashable, Sendable, CaseIterable {
    /// Dark text on light surfaces: daylight, the default.
    case light
    /// Light text on dark surfaces: a dim room, the night.
    case dark
}

/// Dark between two times of the day, light otherwise: a kiosk in a place that dims at night
/// (`Window.colorSchedule`, the board config's `color_scheme = 20:00-07:00`).
public struct ColorSchedule: Hashable, Sendable {
    /// Minutes after local midnight at which the dark scheme starts.
    public var darkFrom: Int
    /// Minutes after local midnight at which the light scheme comes back (before `darkFrom`:
    /// the next morning).
    public var darkUntil: Int

    /// Dark from `darkFrom` until `darkUntil`, minutes after midnight (taken modulo a day).
    public init(darkFrom: Int, darkUntil: Int) {
        self.darkFrom = ((darkFrom % 1440) + 1440) % 1440
        self.darkUntil = ((darkUntil % 1440) + 1440) % 1440
    }

    /// A schedule written `HH:MM-HH:MM` (dark from the first time until the second, `20:00-07:00`);
    /// nil for anything else.
    public init?(_ text: String) {
        let times = text.split(separator: "-", omittingEmptySubsequences: false)
        func minutes(_ part: Substring) -> Int? {
            let hm = part.split(separator: ":", omittingEmptySubsequences: false)
            guard hm.count == 2, hm[1].count == 2, (1...2).contains(hm[0].count), let h = Int(hm[0]), let m = Int(hm[1]),
                (0...23).contains(h), (0...59).contains(m)
            else { return nil }
            return h * 60 + m
        }
        guard times.count == 2, let from = minutes(times[0]), let until = minutes(times[1]), from != until else { return nil }
        self.init(darkFrom: from, darkUntil: until)
    }

    /// The scheme at `minute` after midnight.
    public func scheme(atMinuteOfDay minute: Int) -> ColorScheme {
        let m = ((minute % 1440) + 1440) % 1440
        let dark = darkFrom < darkUntil ? (m >= darkFrom && m < darkUntil) : (m >= darkFrom || m < darkUntil)
        return dark ? .dark : .light
    }
}
