@_spi(Hooks) import ViewCore
import Catalog
import Geometry
import Raster
import TestSupport
import Testing
@testable import UI

/// The catalog with large text and high contrast: at 200 % on 800x480 and 480x800
/// every label stays inside its parent (wrapped or ended with an ellipsis), no two elements
/// overlap, and every tab can still be reached.
@Suite struct LargeTextTests {
    /// Views whose frame leaves their parent's bounds (a clipping scroll view's content aside).
    static func overflowing(_ window: Window) -> [String] {
        var out: [String] = []
        func walk(_ v: View) {
            guard !v.isHidden else { return }
            if let p = v.parent, !(p is ScrollView), !(v is SelectionHandle), v.parent !== window.holder {
                let f = v.frame
                if f.minX < -0.5 || f.minY < -0.5 || f.maxX > p.frame.width + 0.5 || f.maxY > p.frame.height + 0.5,
                    p.clipsContent == false
                {
                    out.append("\(type(of: v)) \(v.id ?? (v as? Label)?.text ?? "") in \(p.id ?? String(describing: type(of: p)))")
                }
            }
            v.children.forEach(walk)
        }
        walk(window.root)
        return out
    }

    @Test(arguments: [(800, 480), (480, 800)])
    func twoHundredPercent(_ size: (Int, Int)) throws {
        let (app, window) = try AdaptiveCatalogTests.catalog(size.0, size.1, 1)
        window.textScale = 2
        let frame = PixelBuffer(width: size.0, height: size.1)
        for screen in 0..<app.tabCount {
            app.select(screen)
            for n in 0...20 { _ = window.render(into: frame, at: Double(screen) + Double(n) / 60) }
            let overflow = Self.overflowing(window)
            #expect(overflow.isEmpty, "\(size) screen \(screen): \(overflow.prefix(5))")
            let state = window.state(at: Double(screen) + 0.5, frameNumber: 0)
            let frames = state.elements.map { Rect(x: $0.frame[0], y: $0.frame[1], width: $0.frame[2], height: $0.frame[3]) }
            for (i, a) in frames.enumerated() {
                for b in frames[(i + 1)...] where !a.intersection(b).isEmpty && a.intersection(b).width > 1 && a.intersection(b).height > 1
                {
                    // A card inside a list is inside the list: only siblings count.
                    if !(a.contains(b.origin) && a.contains(Point(x: b.maxX - 0.5, y: b.maxY - 0.5)))
                        && !(b.contains(a.origin) && b.contains(Point(x: a.maxX - 0.5, y: a.maxY - 0.5)))
                    {
                        Issue.record("\(size) screen \(screen): \(state.elements[i].id) overlaps another element")
                    }
                }
            }
        }
        assertGolden(frame, suite: "Catalog", name: "catalog-\(size.0)x\(size.1)-text200", maxChannelDelta: 2)
    }

    @Test func highContrast() throws {
        let (_, window) = try AdaptiveCatalogTests.catalog(1280, 800, 1)
        window.isHighContrast = true
        let frame = PixelBuffer(width: 1280, height: 800)
        for n in 0...60 { _ = window.render(into: frame, at: Double(n) / 60) }
        assertGolden(frame, suite: "Catalog", name: "catalog-1280x800-contrast", maxChannelDelta: 2)
        // Text is black or white only.
        #expect(HighContrast.text(Color(rgb: 0x6C6C70), in: .light) == Color(rgb: 0x000000))
        #expect(HighContrast.text(Color(rgb: 0xFFFFFF), in: .light) == Color(rgb: 0xFFFFFF))
        // The dark scheme's accent and red titles stay light on its black background; only its
        // black (a title on an accent fill) stays black.
        #expect(HighContrast.text(Color(rgb: 0x4DA3FF), in: .dark) == Color(rgb: 0xFFFFFF))
        #expect(HighContrast.text(Color(rgb: 0xFF6961), in: .dark) == Color(rgb: 0xFFFFFF))
        #expect(HighContrast.text(Color(rgb: 0x000000), in: .dark) == Color(rgb: 0x000000))
        #expect(HighContrast.fill(Color(rgb: 0xF2F2F7)) == Color(rgb: 0xFFFFFF))
        #expect(HighContrast.fill(Color(rgb: 0x0A84FF)) == Color(rgb: 0x0A84FF))
    }
}
