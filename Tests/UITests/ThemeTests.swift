import AppContract
import Glibc
import Geometry
import Raster
import Testing
@testable import UI
@testable import Controls
@_spi(Hooks) import ViewCore
import Widgets

/// Themes: roles resolve in the theme in force, the scheme switches at run time without a
/// rebuild or a lost scroll position, a subtree changes its own, and the day's schedule.
@Suite struct ThemeTests {
    @Test func rolesTakeTheColoursOfTheThemeInForce() {
        #expect(Theme.light.resolve(.primaryText) == Color(rgb: 0x1C1C1E))
        #expect(Theme.dark.resolve(.primaryText) == Color(rgb: 0xF2F2F7))
        #expect(Theme.dark.resolve(.accent) == Color(rgb: 0x4DA3FF))
        // A role's opacity is a fraction of the theme's: 50 % of the accent.
        #expect(Theme.dark.resolve(Color.accent.withOpacity(0.5)) == Color(rgb: 0x4DA3FF, alpha: 128))
        // A shade keeps the theme's own alpha (31 of 255 in light).
        #expect(Theme.light.resolve(Color(role: .pressedShade)) == Color(rgb: 0x000000, alpha: 31))
        // A colour of the app's own is itself in every theme.
        #expect(Theme.dark.resolve(Color(rgb: 0x123456)) == Color(rgb: 0x123456))
        // A role stored in a theme is stored as that theme's colour.
        var t = Theme.dark
        t.accent = .destructive
        #expect(t.accent == Color(rgb: 0xFF6961))
        // High contrast is a variant: black text on white in light, white on black in dark.
        #expect(Theme.light.highContrast().resolve(.secondaryText) == Color(rgb: 0x3A3A3C))
        #expect(Theme.dark.highContrast().resolve(.primaryText) == Color(rgb: 0xFFFFFF))
        #expect(Theme.dark.highContrast().background == Color(rgb: 0x000000))
        #expect(Theme.dark.highContrast().isHighContrast && !Theme.dark.isHighContrast)
    }

    @Test func everyStandardRoleMeetsTheContrastItsUseNeeds() {
        func luminance(_ c: Color) -> Double {
            func lin(_ v: UInt8) -> Double {
                let s = Double(v) / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
        }
        func ratio(_ a: Color, _ b: Color) -> Double {
            let (x, y) = (luminance(a), luminance(b))
            return (max(x, y) + 0.05) / (min(x, y) + 0.05)
        }
        for theme in [Theme.light, Theme.dark] {
            for ground in [theme.background, theme.surface] {
                #expect(ratio(theme.primaryText, ground) >= 7, "\(theme.colorScheme)")
                #expect(ratio(theme.secondaryText, ground) >= 4.5, "\(theme.colorScheme)")
                #expect(ratio(theme.accent, ground) >= 4.5, "\(theme.colorScheme)")
                #expect(ratio(theme.destructive, ground) >= 4.5, "\(theme.colorScheme)")
                #expect(ratio(theme[.fieldBorder], ground) >= 3, "\(theme.colorScheme)")
            }
            #expect(ratio(theme.onAccent, theme.accent) >= 4.5, "\(theme.colorScheme)")
            // A picker's chosen segment carries its title (white on white in dark, issue 59).
            #expect(ratio(theme.primaryText, theme.chosenSegment) >= 4.5, "\(theme.colorScheme)")
        }
    }

    @Test func switchingTheSchemeRedrawsOnceAndKeepsTheScrollPosition() throws {
        let label = Label("Hello", id: "hello")
        let sv = list(40)
        let w = try makeWindow(Stack(.vertical, children: [label, sv]))
        let t = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 100), at: 0.1, duration: 0.2)
        let frame = w.frames(from: t, to: t + 8)
        let offset = w.scrollView("list").sampledOffset
        #expect(offset.y > 100)
        #expect(w.isStill(at: t + 8))
        let lightPixel = frame[5, 5]
        w.colorScheme = .dark
        #expect(!w.isStill(at: t + 8))
        _ = w.render(into: frame, at: t + 8 + 1 / 60)
        #expect(w.isStill(at: t + 8 + 2 / 60), "one frame, then asleep")
        #expect(w.scrollView("list").sampledOffset == offset)
        #expect(frame[5, 5] != lightPixel)
        // The frame equals a full redraw in the dark theme.
        let full = w.fullRedraw(at: t + 8 + 1 / 60)
        #expect(memcmp(frame.pixels, full.pixels, frame.width * frame.height * 4) == 0)
        #expect(w.theme.colorScheme == .dark)
        #expect(label.environment.theme.resolve(label.color) == Color(rgb: 0xF2F2F7))
    }

    @Test func aSubtreeDrawsInItsOwnSchemeAndTheme() throws {
        let dark = Box(id: "dark", fill: .surface, height: 100).colorScheme(.dark)
        let brand = Box(id: "brand", fill: .accent, height: 100).theme { $0.accent = Color(rgb: 0x00796B) }
        let plain = Box(id: "plain", fill: .surface, height: 100)
        let w = try makeWindow(Stack(.vertical, children: [dark, brand, plain]))
        let frame = w.frames(from: 0, to: 0.1)
        #expect(frame[50, 50] & 0xFF_FFFF == 0x1C1C1E)
        #expect(frame[50, 150] & 0xFF_FFFF == 0x00796B)
        #expect(frame[50, 250] & 0xFF_FFFF == 0xFFFFFF)
        // Both schemes take the subtree's change.
        w.colorScheme = .dark
        let again = w.frames(from: 0.2, to: 0.3)
        #expect(again[50, 150] & 0xFF_FFFF == 0x00796B)
        #expect(again[50, 250] & 0xFF_FFFF == 0x1C1C1E)
    }

    /// The chosen segment takes its colour from the theme in force where the picker is: dark in
    /// a dark window, light in a light subtree of it.
    @Test func aPickersChosenSegmentFollowsTheSchemeInForce() throws {
        final class Choice { var index = 0 }
        let choice = Choice()
        func picker(_ id: String) -> Picker {
            Picker(id, id: id, selection: Binding(get: { choice.index }, set: { choice.index = $0 }), options: ["One", "Two"])
        }
        let dark = picker("dark"), light = picker("light")
        let w = try makeWindow(Stack(.vertical, spacing: 20, children: [dark, Stack(.vertical, children: [light]).colorScheme(.light)]))
        w.colorScheme = .dark
        let frame = w.frames(from: 0, to: 0.5)
        for (view, expected) in [(dark, Theme.dark.chosenSegment), (light, Theme.light.chosenSegment)] {
            let thumb = try #require(view.restingThumb)
            let f = view.frameInWindow
            let rgb = UInt32(expected.red) << 16 | UInt32(expected.green) << 8 | UInt32(expected.blue)
            #expect(frame[Int(f.minX + thumb.minX + 4), Int(f.minY + thumb.midY)] & 0xFF_FFFF == rgb, "\(view.id ?? "")")
        }
    }

    @Test func theScheduleIsDarkBetweenItsTimes() throws {
        let night = try #require(ColorSchedule("20:00-07:00"))
        #expect(night.scheme(atMinuteOfDay: 19 * 60 + 59) == .light)
        #expect(night.scheme(atMinuteOfDay: 20 * 60) == .dark)
        #expect(night.scheme(atMinuteOfDay: 0) == .dark)
        #expect(night.scheme(atMinuteOfDay: 6 * 60 + 59) == .dark)
        #expect(night.scheme(atMinuteOfDay: 7 * 60) == .light)
        let afternoon = try #require(ColorSchedule("13:30-14:00"))
        #expect(afternoon.scheme(atMinuteOfDay: 13 * 60 + 45) == .dark)
        #expect(afternoon.scheme(atMinuteOfDay: 14 * 60) == .light)
        for bad in ["", "20:00", "20:00-20:00", "24:00-07:00", "20:60-07:00", "8-9", "20:00-07:00-08:00", "a:bc-07:00"] {
            #expect(ColorSchedule(bad) == nil, "\(bad)")
        }
        // The window follows the wall clock it is given, checked every minute of the loop.
        let w = try makeWindow(Box(fill: .background))
        var minute = 19 * 60 + 59
        w.minuteOfDay = { minute }
        _ = w.timers.runDue(upTo: 0)
        w.colorSchedule = night
        w.frames(from: 0, to: 0.1)
        #expect(w.colorScheme == .light)
        minute = 20 * 60
        _ = w.timers.runDue(upTo: 59)
        #expect(w.colorScheme == .light)
        _ = w.timers.runDue(upTo: 61)
        #expect(w.colorScheme == .dark)
        var settings = AppSettings()
        settings.colorScheme = "light"
        w.apply(settings)
        #expect(w.colorSchedule == nil && w.colorScheme == .light)
    }
}
