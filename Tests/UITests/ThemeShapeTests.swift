import Controls
import Geometry
import Glibc
import Raster
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

/// The theme's type scale and corner radii: built-in views and styled labels take them from the
/// theme in force, a change relayouts and redraws in place, and a size or radius the app sets
/// itself wins. And a tab view switching screens through an animated binding.
@Suite struct ThemeShapeTests {
    @Test func stylesTakeTheirSizesFromTheThemeInForce() throws {
        let body = Label("Body", id: "body")
        let large = Label("Large", id: "large").font(.largeTitle)
        let fixed = Label("Fixed", id: "fixed", size: 20)
        let inside = Label("Inside", id: "inside")
        let brand = Stack(.vertical, children: [inside]).theme { $0.typeScale[.body] = 30 }
        let w = try makeWindow(Stack(.vertical, children: [body, large, fixed, brand]))
        w.frames(from: 0, to: 0.1)
        #expect(body.fontSize == 17 && body.textStyle == .body)
        #expect(large.fontSize == 34)
        #expect(fixed.fontSize == 20 && fixed.textStyle == nil)
        #expect(inside.fontSize == 30)
        let bodyHeight = body.frame.height
        // A brand's larger type: the window lays out again, styled labels grow, a fixed one stays.
        w.lightTheme.typeScale = TypeScale.standard.scaled(by: 1.5)
        w.frames(from: 0.2, to: 0.3)
        #expect(body.fontSize == 25.5 && large.fontSize == 51 && fixed.fontSize == 20 && inside.fontSize == 30)
        #expect(body.frame.height > bodyHeight * 1.3)
        // Setting a size fixes it; a style set again follows the theme.
        body.fontSize = 12
        #expect(body.textStyle == nil && body.fontSize == 12)
        body.font(.caption)
        #expect(body.fontSize == 18)
        // Sizes that are not numbers above 0 are refused.
        var scale = TypeScale.standard
        scale[.body] = .nan
        scale[.title] = -3
        #expect(scale == TypeScale.standard)
        #expect(TypeScale.standard.scaled(by: 0) == TypeScale.standard)
    }

    @Test func builtInViewsTakeTheThemesCorners() throws {
        let button = Button("Go", id: "go", style: .prominent) {}
        button.width = 200
        let w = try makeWindow(Stack(.vertical, padding: EdgeInsets(20), alignment: .leading, children: [button]))
        var frame = w.frames(from: 0, to: 0.1)
        let f = button.frame
        let corner = (x: Int(f.minX) + 1, y: Int(f.minY) + 1)
        let accent = Theme.light.accent
        func isAccent(_ p: UInt32) -> Bool { p & 0xFF_FFFF == UInt32(accent.red) << 16 | UInt32(accent.green) << 8 | UInt32(accent.blue) }
        #expect(!isAccent(frame[corner.x, corner.y]), "a 12-point corner leaves the corner pixel out")
        #expect(isAccent(frame[Int(f.midX), Int(f.minY) + 1]))
        w.lightTheme.cornerRadii.button = 0
        frame = w.frames(from: 0.2, to: 0.3, into: frame)
        #expect(isAccent(frame[corner.x, corner.y]), "square corners")
        // The frame equals a full redraw, and a radius the app sets wins over the theme's.
        let full = w.fullRedraw(at: 0.3)
        #expect(memcmp(frame.pixels, full.pixels, frame.width * frame.height * 4) == 0)
        // Animated away from the theme's radius, it starts from that radius.
        w.lightTheme.cornerRadii.button = 10
        frame = w.frames(from: 0.4, to: 0.5, into: frame)
        withAnimation(.linear(duration: 1)) { button.cornerRadius = 20 }
        #expect(button.presentedCornerRadius(at: w.time + 0.5, in: w.theme) == 15)
        #expect(button.cornerRadius(in: w.theme) == 20)
        w.lightTheme.cornerRadii.button = 3
        #expect(button.cornerRadius(in: w.theme) == 20)
        #expect(TextField(id: "f").cornerRadius(in: w.theme) == 10)
    }

    @Test func anAnimatedBindingCrossFadesTheScreens() throws {
        final class Model { var tab = 0 }
        let model = Model()
        let red = Box(id: "red", fill: Color(rgb: 0xFF0000)), blue = Box(id: "blue", fill: Color(rgb: 0x0000FF))
        let tabs = TabView(
            id: "tabs", selection: Binding(model, \.tab).animation(.linear(duration: 1)),
            tabs: [Tab("Red", content: red), Tab("Blue", content: blue)])
        let w = try makeWindow(tabs)
        var frame = w.frames(from: 0, to: 0.1)
        #expect(frame[100, 100] & 0xFF_FFFF == 0xFF0000)
        tabs.select(1)
        #expect(model.tab == 1 && tabs.selectedIndex == 1)
        frame = w.frames(from: 0.1, to: 0.6, into: frame)
        // Half way: the red screen half gone, the blue half come, over the background.
        let mid = frame[100, 100]
        #expect((mid >> 16) & 0xFF > 40 && mid & 0xFF > 40, "\(String(mid, radix: 16))")
        let full = w.fullRedraw(at: 0.6)
        #expect(memcmp(frame.pixels, full.pixels, frame.width * frame.height * 4) == 0, "mid-fade equals a full redraw")
        frame = w.frames(from: 0.6, to: 1.2, into: frame)
        #expect(frame[100, 100] & 0xFF_FFFF == 0x0000FF)
        #expect(w.isStill(at: 1.3))
        // Without the binding's animation the screens change at once.
        let plain = TabView(
            id: "plain",
            tabs: [Tab("Red", content: Box(fill: Color(rgb: 0xFF0000))), Tab("Blue", content: Box(fill: Color(rgb: 0x0000FF)))])
        let w2 = try makeWindow(plain)
        w2.frames(from: 0, to: 0.1)
        plain.select(1)
        let at = w2.frames(from: 0.1, to: 0.12)
        #expect(at[100, 100] & 0xFF_FFFF == 0x0000FF)
    }
}
