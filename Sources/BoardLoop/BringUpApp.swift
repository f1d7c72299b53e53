import Geometry
import Raster
import Runtime

/// A board bring-up test pattern (`glide board --app bringup`, like kmscube): no fonts, no content
/// files, so it shows on any board that can modeset. A list of coloured rows that follows a
/// finger 1:1 (and wheel, arrow and page keys), a fixed header whose colour and tally of squares
/// change with each tap, and a corner marker per rotation so a wrong `rotation` is obvious. It
/// is the app the virtual-board test drives until the catalog demo is wired in.
package final class BringUpApp: App {
    package private(set) var width = 0
    package private(set) var height = 0
    /// Content offset in pixels (0 = top; grows as the content moves up).
    package private(set) var offset: Double = 0
    package private(set) var taps = 0
    package let rowHeight: Double = 96
    package let rows = 60
    package var headerHeight: Double { 72 }

    private let cache = RasterCache()
    private var drawnOffset: Double?
    private var drawnTaps = -1
    private var touchStart: [Int: (start: Point, last: Point, moved: Bool)] = [:]

    package init() {}

    package var maxOffset: Double { max(0, Double(rows) * rowHeight - (Double(height) - headerHeight)) }

    package func resize(width: Int, height: Int) {
        self.width = width; self.height = height
        drawnOffset = nil
        offset = min(offset, maxOffset)
    }

    package func handle(_ event: InputEvent) {
        switch event.kind {
        case let .touch(phase, slot, p):
            switch phase {
            case .down:
                touchStart[slot] = (p, p, false)
            case .move:
                guard var s = touchStart[slot] else { return }
                if !s.moved && (p - s.start).length > 8 { s.moved = true }
                if s.moved { scroll(by: s.last.y - p.y) }
                s.last = p
                touchStart[slot] = s
            case .up:
                if let s = touchStart.removeValue(forKey: slot), !s.moved { taps += 1 }
            case .cancel:
                touchStart.removeValue(forKey: slot)
            }
        case let .key(key, pressed):
            guard pressed else { return }
            let page = Double(height) - headerHeight
            switch key {
            case .down: scroll(by: rowHeight)
            case .up: scroll(by: -rowHeight)
            case .pageDown, .space: scroll(by: page)
            case .pageUp: scroll(by: -page)
            case .home: scroll(by: -offset)
            case .end: scroll(by: maxOffset - offset)
            case .enter: taps += 1
            default: break
            }
        case let .wheel(delta, _), let .fingerScroll(delta, _):
            scroll(by: delta.y)
        case .pointerButton(0x110, true, _):
            taps += 1
        default:
            break
        }
    }

    private func scroll(by dy: Double) {
        guard dy.isFinite else { return }
        offset = min(max(offset + dy, 0), maxOffset)
    }

    package func isAtRest(at t: Double) -> Bool { true }

    package func render(into frame: PixelBuffer, at t: Double) -> Region {
        guard width > 0, height > 0 else { return Region() }
        let o = offset.rounded()
        var damage = Region()
        var canvas = Canvas(frame, cache: cache)
        let header = IntRect(x: 0, y: 0, width: width, height: Int(headerHeight))
        if drawnOffset != o {
            let body = IntRect(x: 0, y: Int(headerHeight), width: width, height: height - Int(headerHeight))
            canvas.save()
            canvas.clip(toDeviceRect: body)
            canvas.clear(color: PremultipliedColor(rgb: 0x101418))
            let first = max(0, Int((o) / rowHeight))
            let last = min(rows - 1, Int((o + Double(height)) / rowHeight))
            if first <= last {
                for i in first...last {
                    let y = headerHeight + Double(i) * rowHeight - o
                    let hue = BringUpApp.palette[i % BringUpApp.palette.count]
                    canvas.fill(
                        roundedRect: Rect(x: 16, y: y + 8, width: Double(width) - 32, height: rowHeight - 16),
                        radius: 14, color: PremultipliedColor(rgb: i % 2 == 0 ? 0x2A3038 : 0x232830))
                    // A row's index in binary as dots, so each row is recognisable.
                    for bit in 0..<6 where (i >> bit) & 1 == 1 {
                        canvas.fill(circleCenter: Point(x: 48 + Double(bit) * 36, y: y + rowHeight / 2), radius: 12, color: hue)
                    }
                    let barX = 280 + Double((i * 37) % max(1, width - 400))
                    canvas.fill(rect: Rect(x: barX, y: y + 30, width: 80, height: rowHeight - 60), color: hue)
                }
            }
            canvas.restore()
            drawnOffset = o
            damage.add(body)
        }
        if drawnTaps != taps {
            canvas.save()
            canvas.clip(toDeviceRect: header)
            canvas.clear(color: PremultipliedColor(rgb: BringUpApp.headerColors[taps % BringUpApp.headerColors.count]))
            for i in 0..<min(taps, 20) {
                canvas.fill(rect: Rect(x: 20 + Double(i) * 30, y: 24, width: 22, height: 22), color: PremultipliedColor(rgb: 0xFFFFFF))
            }
            // Corner marker: top-left of the upright canvas.
            canvas.fill(circleCenter: Point(x: Double(width) - 36, y: 36), radius: 20, color: PremultipliedColor(rgb: 0xFFD400))
            canvas.restore()
            drawnTaps = taps
            damage.add(header)
        }
        return damage
    }

    package func stateJSON(at t: Double, frameNumber: Int) -> String {
        "{\"app\":\"bringup\",\"frame\":\(frameNumber),\"offsetY\":\(Int(offset.rounded())),\"taps\":\(taps),\"width\":\(width),\"height\":\(height)}"
    }

    static let palette: [PremultipliedColor] = [0xE8554E, 0xF2A541, 0x5DB16D, 0x3C9DD0, 0x8E6BD8, 0xD86BB5]
        .map { PremultipliedColor(rgb: $0) }
    static let headerColors: [UInt32] = [0x1F6FEB, 0x2DA44E, 0xBF3989, 0xD1242F, 0x8250DF]
}
