// Many fingers at once, as a script or a remote client may send them: any number of touches on
// any slots, in any order, over a list of tappable rows and a paging carousel. The window
// follows at most `maximumTouches` fingers; once every finger the input put down is lifted, it
// comes to rest within a few seconds with every scroll view inside its content.
import Geometry
import Raster
import Runtime
import Scrolling
import Text
import UI

func fuzzTouches(_ bytes: UnsafeRawBufferPointer, context: TextFuzzContext) {
    var input = FuzzInput(bytes)
    let rows = Stack(.vertical, id: "rows")
    var taps = 0
    for i in 0..<30 { rows.add(Box(id: "row-\(i)", fill: .white, height: 50).onTap { taps += 1 }) }
    var paging = ScrollConfiguration()
    paging.isPagingEnabled = true
    let strip = Stack(.horizontal, id: "strip", children: (0..<4).map { Box(id: "page-\($0)", fill: .black) })
    let carousel = ScrollView(id: "carousel", axes: .horizontal, configuration: paging, content: strip)
    carousel.sizesPagesToViewport = true
    carousel.height = 120
    let list = ScrollView(id: "list", content: rows)
    let window = Window(
        width: 320, height: 480, typography: Typography(library: context.library),
        root: Stack(.vertical, children: [carousel, list]))
    let frame = PixelBuffer(width: 320, height: 480)
    var t = 0.0
    var down: Set<Int> = []
    var events = 0
    while !input.isAtEnd && events < 4000 {
        events += 1
        t += Double(input.byte() % 8) / 1000
        // Slots from a wide range, so that thousands of distinct fingers can come down.
        let slot = Int(input.byte()) << 4 | Int(input.byte() % 16)
        let p = Point(x: input.finiteCoordinate(limit: 400), y: input.finiteCoordinate(limit: 600))
        let phase: InputEvent.TouchPhase
        switch input.byte() % 6 {
        case 0, 1: phase = .down; down.insert(slot)
        case 2, 3: phase = .move
        case 4: phase = .up; down.remove(slot)
        default: phase = .cancel; down.remove(slot)
        }
        window.handle(InputEvent(.touch(phase, slot: slot, position: p), time: t))
        if input.byte() % 8 == 0 { _ = window.render(into: frame, at: t) }
    }
    for slot in down { window.handle(InputEvent(.touch(.up, slot: slot, position: .zero), time: t)) }
    let rested = comesToRest(window, into: frame, after: t, within: 10)
    expect(rested, "not at rest 10 s after every finger of \(events) events lifted")
    for sv in [list, carousel] {
        let o = sv.sampledOffset
        expect(
            o.isFinite && o.x >= 0 && o.y >= 0 && o.x <= sv.controller.maximumOffset(.horizontal) + 0.5
                && o.y <= sv.controller.maximumOffset(.vertical) + 0.5, "\(sv.id ?? "") rests at \(o)")
    }
}
