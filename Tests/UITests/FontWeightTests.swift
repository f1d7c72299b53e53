import Geometry
import Raster
import Testing
import TestSupport
import Text
@testable import UI
@testable import Widgets

/// Weights and slant on labels, fields and drawn text, in Latin, Arabic, Hebrew and Japanese.
@Suite struct FontWeightTests {
    /// The ink of `text` drawn at `weight`: summed coverage and the columns it spans.
    static func ink(_ text: String, weight: FontWeight, italic: Bool = false) throws -> (total: Int, width: Int) {
        let label = Label(text, size: 24, color: Color(rgb: 0x000000)).fontWeight(weight).italic(italic)
        let w = try makeWindow(Stack(.vertical, children: [label]), width: 600, height: 60)
        let b = w.frames(from: 0, to: 0.1)
        var total = 0, xs: [Int] = []
        for y in 0..<60 {
            for x in 0..<600 {
                let dark = 255 - Int(b[x, y] & 0xFF)  // blue channel: the background is light
                if dark > 40 { total += dark; xs.append(x) }
            }
        }
        return (total, (xs.max() ?? 0) - (xs.min() ?? 0))
    }

    @Test(arguments: ["Departures", "المغادرة", "יציאות", "出発案内"])
    func heavierWeightsPutDownMoreInk(_ text: String) throws {
        let inks = try FontWeight.all.map { try Self.ink(text, weight: $0) }
        for (a, b) in zip(inks, inks.dropFirst()) {
            #expect(a.total < b.total, "\(text): \(inks.map(\.total))")
            #expect(a.width <= b.width, "\(text): \(inks.map(\.width))")
        }
    }

    @Test func italicSlantsLatin() throws {
        let upright = try Self.ink("Illinois", weight: .regular), slanted = try Self.ink("Illinois", weight: .regular, italic: true)
        #expect(upright.total != slanted.total || upright.width != slanted.width)
    }

    @Test func golden() throws {
        let column = Stack(.vertical, spacing: 6, padding: EdgeInsets(12))
        for weight in FontWeight.all {
            column.add(Label("Gate 12 · Departures · بوابة ١٢ · שער 12 · 出発 (\(weight))", size: 20).fontWeight(weight))
        }
        column.add(Label("Italic: Arrivals from Zürich", size: 20).italic())
        column.add(Label("Bold italic: Delayed", size: 20).bold().italic())
        column.add(TextField(id: "field", text: "Bold field").bold())
        let w = try makeWindow(column, width: 800, height: 480)
        let screen = w.frames(from: 0, to: 0.1)
        assertGolden(screen, suite: "Text", name: "weights-800x480")
    }
}

/// `minimumScaleFactor(_:)`: a label that would be cut shrinks first, as far as it may.
@Suite struct LabelShrinkTests {
    static func shown(_ label: Label, width: Int = 240) throws -> (truncated: Bool, size: Double) {
        let w = try makeWindow(Stack(.vertical, children: [label]), width: width, height: 100)
        _ = w.frames(from: 0, to: 0.1)
        let layout = try #require(label.layout(width: label.frame.width, scale: 1, typography: w.typography))
        return (layout.isTruncated, layout.font.pixelSize)
    }

    @Test func aCutLabelShrinksUntilItFits() throws {
        let text = "Departures and arrivals"
        let plain = try Self.shown(Label(text, size: 30, maxLines: 1))
        #expect(plain.truncated && plain.size == 30)
        let shrunk = try Self.shown(Label(text, size: 30, maxLines: 1).minimumScaleFactor(0.5))
        #expect(!shrunk.truncated && shrunk.size < 30 && shrunk.size >= 15)
        // The largest size that fits: 5 % more would not.
        let tooFar = try Self.shown(Label(text, size: shrunk.size + 1.5, maxLines: 1))
        #expect(tooFar.truncated)
        // Not allowed to shrink enough: cut at its smallest.
        let limited = try Self.shown(Label(text, size: 30, maxLines: 1).minimumScaleFactor(0.9))
        #expect(limited.truncated && abs(limited.size - 27) < 0.3)
        // Text that fits keeps its size.
        #expect(try Self.shown(Label("Gate 12", size: 30, maxLines: 1).minimumScaleFactor(0.5)).size == 30)
    }
}
