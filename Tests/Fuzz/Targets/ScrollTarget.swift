// The scroll engine under any sequence of touches, programmatic scrolls, zooms and geometry
// changes: its state stays finite throughout and, once fingers lift and nothing new happens,
// comes to rest inside the content at a scale within the limits.
import Geometry
import Scrolling

func fuzzScroll(_ bytes: UnsafeRawBufferPointer) {
    var input = FuzzInput(bytes)
    var configuration = ScrollConfiguration()
    configuration.axes = input.pick([.vertical, .horizontal, .both])
    configuration.isPagingEnabled = input.bool()
    configuration.pageSize = input.pick([nil, nil, 0, -10, .nan, 1e300, 1, 250, 333.3])
    (configuration.minimumScale, configuration.maximumScale) = input.pick([(1, 1), (1, 1), (0.5, 4), (1, 8), (0.25, 1)])
    configuration.decelerationRate = input.pick([ScrollConfiguration.normalDecelerationRate, ScrollConfiguration.fastDecelerationRate])
    configuration.bouncesHorizontally = input.bool()
    configuration.bouncesVertically = input.bool()
    configuration.alwaysBounceVertical = input.bool()
    configuration.touchResampling = input.bool() ? TouchResampling() : nil
    var engine = ScrollController(
        viewportSize: Size(width: input.coordinate(limit: 3000), height: input.coordinate(limit: 3000)),
        contentSize: Size(width: input.coordinate(limit: 1e6), height: input.coordinate(limit: 1e6)),
        configuration: configuration, offset: input.point(limit: 1e6))
    var t = 0.0
    var down: [Int: Point] = [:]
    func checkFinite(_ step: String) {
        let s = engine.state(at: t)
        expect(
            s.offset.isFinite && s.velocity.isFinite && s.scale.isFinite && s.scale > 0,
            "\(step) at \(t): offset \(s.offset) velocity \(s.velocity) scale \(s.scale)")
    }
    var steps = 0
    while !input.isAtEnd && steps < 200 {
        steps += 1
        t += Double(input.byte()) / 500  // 0...0.51 s between steps
        let id = Int(input.byte() % 3)
        switch input.byte() % 12 {
        case 0, 1:
            let p = input.point(limit: 4000)
            let time = input.byte() == 0 ? t - 0.05 : t  // now and then a sample out of order
            engine.handle(TouchEvent(down[id] == nil ? .began : .moved, id: id, location: p, time: time))
            if p.isFinite, abs(p.x) < 1e7, abs(p.y) < 1e7 { down[id] = p }
        case 2, 3, 4:
            guard let last = down[id] else { continue }
            let p = Point(x: last.x + input.finiteCoordinate(limit: 400), y: last.y + input.finiteCoordinate(limit: 400))
            engine.handle(TouchEvent(.moved, id: id, location: p, time: t))
            down[id] = p
        case 5:
            guard let last = down.removeValue(forKey: id) else { continue }
            engine.handle(TouchEvent(input.bool() ? .ended : .cancelled, id: id, location: last, time: t))
        case 6: engine.scroll(to: input.point(limit: 1e6), animated: input.bool(), at: t)
        case 7: engine.scroll(by: input.point(limit: 5000), animated: input.bool(), at: t)
        case 8: engine.zoom(to: input.pick([0.1, 1, 2, 3.7, 100, .nan]), around: input.point(), animated: input.bool(), at: t)
        case 9: engine.perform(input.pick(ScrollCommand.allCases), at: t)
        case 10:
            engine.changeContent(
                size: Size(width: input.coordinate(limit: 1e6), height: input.coordinate(limit: 1e6)),
                shiftedBy: input.point(limit: 5000), at: t)
        default:
            if input.bool() {
                engine.resize(
                    viewport: Size(width: input.coordinate(limit: 3000), height: input.coordinate(limit: 3000)),
                    content: Size(width: input.coordinate(limit: 1e6), height: input.coordinate(limit: 1e6)), at: t)
            } else {
                engine.autoscroll(velocity: input.point(limit: 5000), at: t)
            }
        }
        checkFinite("step \(steps)")
    }
    for (id, last) in down.sorted(by: { $0.key < $1.key }) {
        t += 0.008
        engine.handle(TouchEvent(.ended, id: id, location: last, time: t))
    }
    engine.autoscroll(velocity: .zero, at: t)
    checkFinite("lift")
    let end = t + 120
    expect(engine.isAtRest(at: end), "still moving 120 s after the last input: \(engine.state(at: end))")
    let rest = engine.state(at: end)
    let c = engine.configuration
    expect(rest.scale >= c.minimumScale - 1e-9 && rest.scale <= c.maximumScale + 1e-9, "rests at scale \(rest.scale)")
    for axis in Axis.allCases {
        let offset = axis == .horizontal ? rest.offset.x : rest.offset.y
        let limit = engine.maximumOffset(axis, scale: rest.scale)
        expect(offset >= -1e-6 && offset <= limit + 1e-6, "rests at \(offset) on \(axis), outside 0...\(limit)")
    }
}
