import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// What a SwiftUI hand reaches for first: `.padding`, `.background` on any view, content
/// alignment in a frame, `ScrollView { … }`.
extension Color {
    var rgb24: UInt32 { premultiplied.argb & 0xFFFFFF }
}

@Suite struct ConvenienceTests {
    /// The bounding box of pixels that are not `background` (inclusive), in `region`.
    func ink(in b: PixelBuffer, region: IntRect, background: UInt32) -> IntRect? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in region.y..<region.maxY {
            for x in region.x..<region.maxX where b[x, y] & 0xFFFFFF != background & 0xFFFFFF {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return minX == .max ? nil : IntRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    @Test func paddingInsetsALabelsTextInsideItsBackground() throws {
        let plain = Label("Hello", id: "plain", size: 20)
        let padded = Label("Hello", id: "padded", size: 20).padding(12).background(.white)
        let sides = Label("Hello", id: "sides", size: 20).padding(.horizontal, 30)
        let w = try makeWindow(Stack(.vertical, alignment: .leading, children: [plain, padded, sides]), width: 300, height: 300)
        #expect(padded.padding == EdgeInsets(12))
        #expect(sides.padding == EdgeInsets(top: 0, leading: 30, bottom: 0, trailing: 30))
        #expect(padded.frame.height == plain.frame.height + 24)
        #expect(sides.frame.height == plain.frame.height)
        let b = w.fullRedraw(at: 0)
        let bg = w.background.rgb24
        let white = Color.white.rgb24
        // The background covers the padding; the text starts 12 pt in.
        let plainInk = try #require(ink(in: b, region: IntRect(x: 0, y: 0, width: 300, height: Int(plain.frame.height)), background: bg))
        let box = IntRect(x: 0, y: Int(padded.frame.minY), width: Int(padded.frame.width), height: Int(padded.frame.height))
        #expect(b[1, box.y + 1] & 0xFFFFFF == white)
        let paddedInk = try #require(ink(in: b, region: box, background: white))
        #expect(paddedInk.x == plainInk.x + 12)
        #expect(paddedInk.y - box.y == plainInk.y + 12)
        #expect(paddedInk.width == plainInk.width)
    }

    @Test func aLabelCentredInItsFrame() throws {
        let label = Label("Centre", id: "c", size: 20).frame(width: 200, height: 120, alignment: .center)
        let w = try makeWindow(Stack(.vertical, alignment: .leading, children: [label]), width: 300, height: 300)
        let b = w.fullRedraw(at: 0)
        let box = try #require(
            ink(
                in: b, region: IntRect(x: 0, y: 0, width: 200, height: 120),
                background: w.background.rgb24))
        // The text's line box is centred; its ink sits within a few pixels of the middle.
        #expect(abs(Double(box.x) + Double(box.width) / 2 - 100) <= 2)
        #expect(abs(Double(box.y) + Double(box.height) / 2 - 60) <= 4)
        // Bottom-trailing.
        label.contentAlignment = .bottomTrailing
        let c = try #require(
            ink(
                in: w.fullRedraw(at: 0), region: IntRect(x: 0, y: 0, width: 200, height: 120),
                background: w.background.rgb24))
        #expect(c.maxX >= 197 && c.maxX <= 200)
        #expect(c.maxY >= 108 && c.maxY <= 120)
    }

    @Test func childrenOfAPlainViewSitAtTheirAlignment() throws {
        let badge = Box(id: "badge", fill: .white, width: 40, height: 20)
        let holder = View(id: "holder").frame(width: 200, height: 100, alignment: .bottomTrailing).padding(10)
        holder.add(badge)
        let w = try makeWindow(Stack(.vertical, alignment: .leading, children: [holder]), width: 300, height: 300)
        #expect(badge.frame == Rect(x: 150, y: 70, width: 40, height: 20))
        holder.contentAlignment = nil
        w.layoutIfNeeded()
        #expect(badge.frame == Rect(x: 10, y: 10, width: 180, height: 80))
    }

    @Test func backgroundsOnAnyView() throws {
        final class Dot: View {
            override func draw(in context: inout DrawContext) {
                context.fill(Rect(x: 10, y: 10, width: 4, height: 4), color: .black)
            }
        }
        let dot = Dot(id: "dot").frame(width: 40, height: 40).background(Color(rgb: 0xFF0000))
        let sv = ScrollView(id: "list") {
            Box(id: "a", height: 30)
            Box(id: "b", height: 30)
        }.background(Color(rgb: 0x00FF00))
        let w = try makeWindow(Stack(.vertical, children: [dot, sv]), width: 100, height: 200)
        let b = w.fullRedraw(at: 0)
        #expect(b[2, 2] & 0xFFFFFF == Color(rgb: 0xFF0000).rgb24)
        #expect(b[11, 11] & 0xFFFFFF == Color.black.rgb24)
        #expect(b[50, 100] & 0xFFFFFF == Color(rgb: 0x00FF00).rgb24)
        // The builder stacked the two boxes along the scrolling axis.
        #expect(
            sv.content.children.map(\.frame) == [
                Rect(x: 0, y: 0, width: 100, height: 30),
                Rect(x: 0, y: 30, width: 100, height: 30),
            ])
        #expect(sv.frame == Rect(x: 0, y: 40, width: 100, height: 160))
    }

    @Test func aScrollViewsPaddingGoesRoundItsContent() throws {
        let sv = ScrollView(id: "list") {
            Box(id: "a", height: 30)
            Box(id: "b", height: 30)
        }.padding(8)
        _ = try makeWindow(Stack(.vertical, children: [sv]), width: 100, height: 200)
        #expect(sv.padding == EdgeInsets(8) && sv.content.padding == EdgeInsets(8))
        #expect(sv.frame == Rect(x: 0, y: 0, width: 100, height: 200))
        #expect(sv.content.children.map(\.frame) == [Rect(x: 8, y: 8, width: 84, height: 30), Rect(x: 8, y: 38, width: 84, height: 30)])
        #expect(sv.content.frame.height == 8 + 30 + 30 + 8)
    }
}
