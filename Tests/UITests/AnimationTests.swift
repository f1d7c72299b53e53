import Glibc
import Geometry
import Headless
import ImageCodecs
import Raster
import Scrolling
import TestSupport
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

/// Animations: exact values of the curves at given times, frames mid-animation equal to full
/// redraws, transitions, a pulse that stops off screen, and a flick untouched by them.
@Suite struct AnimationTests {
    @Test func curvesHaveTheirValuesAtGivenTimes() {
        // A critically damped spring (damping fraction 1, response 0.5 s: ω = 4π) released at
        // rest: 1 - (1 + ωt)e^(-ωt).
        let omega = 4 * Double.pi
        let spring = Animation.spring(response: 0.5, dampingFraction: 1)
        #expect(abs(spring.fraction(at: 0.1) - (1 - (1 + omega * 0.1) * exp(-omega * 0.1))) < 1e-9)
        #expect(abs(spring.fraction(at: 0.1) - 0.357_73) < 1e-4)
        #expect(spring.isFinished(at: 2) && !spring.isFinished(at: 0.3))
        // Eased in and out: half way at half its duration, and symmetric about it.
        let ease = Animation.easeInOut(duration: 0.4)
        #expect(abs(ease.fraction(at: 0.2) - 0.5) < 1e-9)
        #expect(abs(ease.fraction(at: 0.1) + ease.fraction(at: 0.3) - 1) < 1e-9)
        #expect(ease.fraction(at: 0) == 0 && ease.fraction(at: 0.4) == 1)
        // CSS ease-in at x = 0.5 (control points 0.42, 0; 1, 1): y = 0.31536...
        #expect(abs(Animation.easeIn(duration: 1).fraction(at: 0.5) - 0.315_357) < 1e-5)
        #expect(Animation.linear(duration: 2).fraction(at: 0.5) == 0.25)
        // A delay holds it at its start; repeats reverse every other pass.
        #expect(Animation.linear(duration: 1).delay(0.5).fraction(at: 0.5) == 0)
        #expect(Animation.linear(duration: 1).delay(0.5).fraction(at: 1) == 0.5)
        let pulse = Animation.linear(duration: 1).repeatForever()
        #expect(pulse.fraction(at: 1.25) == 0.75)
        #expect(pulse.fraction(at: 2.25) == 0.25)
        #expect(!pulse.isFinished(at: 1e6))
        #expect(Animation.linear(duration: 1).repeatCount(2).fraction(at: 5) == 0)
        // A bouncy spring passes its end on the way.
        let bouncy = Animation.spring(response: 0.5, dampingFraction: 0.5)
        #expect((0..<100).map { bouncy.fraction(at: Double($0) / 100) }.max()! > 1.1)
    }

    @Test func aPropertyMovesWithTheLoopsClockAndEndsAtItsValue() throws {
        let box = Box(id: "box", fill: Color(rgb: 0xD00000), width: 100, height: 100)
        let w = try makeWindow(Stack(.vertical, children: [box]))
        w.frames(from: 0, to: 0.1)
        withAnimation(.linear(duration: 1)) {
            box.opacity = 0
            box.offset = Point(x: 100, y: 0)
        }
        #expect(box.opacity == 0 && box.offset.x == 100, "the model holds the new values at once")
        let start = w.time
        _ = w.render(into: PixelBuffer(width: 400, height: 400), at: start + 0.5)
        #expect(box.presentedOpacity(at: start + 0.5) == 0.5)
        #expect(box.presentedOffset(at: start + 0.5) == Point(x: 50, y: 0))
        #expect(!w.isStill(at: start + 0.5))
        w.frames(from: start + 0.5, to: start + 1.1)
        #expect(w.isStill(at: start + 1.2))
        #expect(box.animations.isEmpty)
        // Without withAnimation a change shows at once and stops a running one.
        withAnimation(.linear(duration: 1)) { box.opacity = 1 }
        box.opacity = 0.25
        #expect(box.presentedOpacity(at: w.time + 0.5) == 0.25)
    }

    /// Two windows of the same scene, one drawing only what changed: after every frame their
    /// screens are equal.
    func checkFramesEqualFullRedraws(
        _ name: String, scene: () -> View, seconds: Double, sourceLocation: SourceLocation = #_sourceLocation,
        at times: [(Double, (Window) -> Void)]
    ) throws {
        let damaged = try makeWindow(scene(), width: 400, height: 400)
        let full = try makeWindow(scene(), width: 400, height: 400)
        let display = HeadlessDisplay(width: 400, height: 400)
        let frame = PixelBuffer(width: 400, height: 400), reference = PixelBuffer(width: 400, height: 400)
        var pending = times[...]
        var partial = 0
        for n in 0...Int(seconds * 60) {
            let t = Double(n) / 60
            while let (at, change) = pending.first, at <= t {
                pending.removeFirst()
                _ = damaged.timers.runDue(upTo: at); _ = full.timers.runDue(upTo: at)
                change(damaged); change(full)
            }
            let damage = damaged.render(into: frame, at: t)
            try display.present(frame, damage: damage)
            if damage.rects.reduce(0, { $0 + $1.area }) < 400 * 400 { partial += 1 }
            full.fullDamage = true
            _ = full.render(into: reference, at: t)
            if memcmp(display.screen.pixels, reference.pixels, 400 * 400 * 4) != 0 {
                try? PNG.write(display.screen, to: "/tmp/glide-animation-\(name)-screen.png")
                try? PNG.write(reference, to: "/tmp/glide-animation-\(name)-full.png")
                Issue.record("\(name): frame \(n) differs from a full redraw", sourceLocation: sourceLocation)
                return
            }
        }
        #expect(partial > 10, "\(name): \(partial) partial frames", sourceLocation: sourceLocation)
    }

    static func cards() -> View {
        let cards = (0..<4).map { i in
            Box(id: "card-\(i)", fill: Color(rgb: [0xE63946, 0x2A9D8F, 0xE9C46A, 0x457B9D][i]), cornerRadius: 12, height: 60)
        }
        let list = Stack(.vertical, id: "cards", spacing: 10, children: cards).padding(20)
        let label = Label("Touch to start", id: "hint", size: 22)
        return Stack(.vertical, children: [label, list, list_(30)])
    }

    static func list_(_ n: Int) -> ScrollView { list(n) }

    @Test func framesMidAnimationEqualFullRedraws() throws {
        try checkFramesEqualFullRedraws(
            "properties", scene: Self.cards, seconds: 2.5,
            at: [
                (
                    0.2,
                    { w in
                        withAnimation(.spring(response: 0.6, dampingFraction: 0.6)) {
                            w.root.view(withID: "card-0")!.offset = Point(x: 60, y: 10)
                            w.root.view(withID: "card-1")!.scaleEffect = 0.6
                            w.root.view(withID: "card-2")!.opacity = 0.3
                            w.root.view(withID: "card-3")!.fill = Color(rgb: 0x1D3557)
                            w.root.view(withID: "card-3")!.cornerRadius = 30
                        }
                    }
                ),
                (0.5, { w in withAnimation(.easeInOut(duration: 0.5).repeatForever()) { w.root.view(withID: "hint")!.opacity = 0.2 } }),
                (1.0, { w in withAnimation(.easeOut(duration: 0.4)) { w.root.view(withID: "card-1")!.isHidden = true } }),
                (1.6, { w in withAnimation(.easeOut(duration: 0.4)) { w.root.view(withID: "card-1")!.isHidden = false } }),
            ])
    }

    /// A quarter turn maps pixels onto pixels: a box red on its left half and blue on its right,
    /// turned 90° clockwise about its centre, is red above and blue below, exactly, and what it
    /// covered and no longer covers shows the background.
    @Test func aQuarterTurnMapsPixelsExactly() throws {
        let halves = Stack(
            .horizontal, id: "halves",
            children: [Box(fill: Color(rgb: 0xFF0000), width: 50, height: 50), Box(fill: Color(rgb: 0x0000FF), width: 50, height: 50)])
        let w = try makeWindow(Stack(.vertical, padding: EdgeInsets(100), alignment: .leading, children: [halves]), width: 300, height: 300)
        w.background = Color(rgb: 0xFFFFFF)
        halves.rotationEffect = 90
        let frame = w.frames(from: 0, to: 0.05)
        // The box spans 100...200 x 100...150, its centre (150, 125): turned, 125...175 x 75...175.
        #expect(frame[150, 80] == 0xFFFF_0000 && frame[150, 124] == 0xFFFF_0000)
        #expect(frame[150, 125] == 0xFF00_00FF && frame[150, 170] == 0xFF00_00FF)
        #expect(frame[126, 100] == 0xFFFF_0000 && frame[174, 160] == 0xFF00_00FF)
        #expect(frame[110, 140] == 0xFFFF_FFFF && frame[190, 140] == 0xFFFF_FFFF && frame[150, 74] == 0xFFFF_FFFF)
    }

    @Test func aRotationMovesWithTheClockAndEveryFrameEqualsAFullRedraw() throws {
        let box = VStack(id: "box", spacing: 8, padding: EdgeInsets(16)) {
            Label("Turning", size: 24)
            Label("text and corners sampled", size: 14)
        }.background(Color(rgb: 0xFFD166), cornerRadius: 14)
        box.shadow(radius: 8, y: 4)
        let w = try makeWindow(Stack(.vertical, padding: EdgeInsets(120), alignment: .leading, children: [box]), width: 400, height: 400)
        w.frames(from: 0, to: 0.1)
        withAnimation(.linear(duration: 1)) { box.rotationEffect = 90 }
        #expect(box.presentedRotation(at: w.time + 0.5) == 45)
        // A third of the way: 30°, its shadow turning with it, its text sampled, edges smooth.
        assertGolden(w.frames(from: 0.1, to: 0.1 + 1.0 / 3), suite: "Animation", name: "rotation-midway", maxChannelDelta: 2)
        try checkFramesEqualFullRedraws(
            "rotation", scene: Self.cards, seconds: 2,
            at: [
                (
                    0.2,
                    { w in
                        withAnimation(.spring(response: 0.5, dampingFraction: 0.6)) { w.root.view(withID: "card-1")!.rotationEffect = 20 }
                    }
                ),
                (
                    0.4,
                    { w in
                        withAnimation(.linear(duration: 0.8).repeatForever(autoreverses: false)) {
                            w.root.view(withID: "hint")!.rotationEffect = 360
                        }
                    }
                ),
                (
                    0.9,
                    { w in
                        withAnimation(.easeOut(duration: 0.4)) {
                            w.root.view(withID: "card-2")!.opacity = 0.5; w.root.view(withID: "card-2")!.rotationEffect = -45
                        }
                    }
                ),
            ])
    }

    @Test func transitionsBringViewsInAndOut() throws {
        let added = Box(id: "added", fill: Color(rgb: 0x2A9D8F), height: 60)
        added.transition = .move(edge: .trailing)
        try checkFramesEqualFullRedraws(
            "transitions", scene: Self.cards, seconds: 2,
            at: [
                (
                    0.2,
                    { w in
                        let copy = Box(id: "added", fill: Color(rgb: 0x2A9D8F), height: 60)
                        copy.transition = .move(edge: .trailing)
                        withAnimation(.easeInOut(duration: 0.5)) { w.root.view(withID: "cards")!.insert(copy, at: 0) }
                    }
                ),
                (1.0, { w in withAnimation(.easeInOut(duration: 0.5)) { w.root.view(withID: "card-2")!.removeFromParent() } }),
            ])
        // Mid-way the new card is half-way in from the trailing edge, the cards below glide down.
        let w = try makeWindow(Self.cards())
        w.frames(from: 0, to: 0.2)
        let cards = w.root.view(withID: "cards")!
        let below = w.root.view(withID: "card-0")!
        let before = below.frame.minY
        withAnimation(.easeInOut(duration: 0.5)) { cards.insert(added, at: 0) }
        let frame = w.frames(from: 0.2, to: 0.45)
        #expect(added.presentedOffset(at: 0.45).x == added.frame.width / 2)
        #expect(below.presentedOffset(at: 0.45).y == (before - below.frame.minY) / 2)
        assertGolden(frame, suite: "Animation", name: "transition-midway", maxChannelDelta: 2)
        w.frames(from: 0.45, to: 0.8)
        #expect(w.isStill(at: 0.8) && added.animations.isEmpty)
        // Removed, it is drawn going out until its transition ends, then let go.
        withAnimation(.easeInOut(duration: 0.5)) { added.removeFromParent() }
        #expect(cards.departing.count == 1)
        w.frames(from: 0.8, to: 1.4)
        #expect(cards.departing.isEmpty && w.isStill(at: 1.4))
    }

    @Test func aPulseOffScreenLetsTheLoopSleep() throws {
        let pulse = Box(id: "pulse", fill: Color(rgb: 0xE63946), height: 50)
        let rows = Stack(.vertical, id: "rows", children: [pulse] + (0..<40).map { row($0) })
        let w = try makeWindow(ScrollView(id: "list", content: rows))
        w.frames(from: 0, to: 0.1)
        withAnimation(.easeInOut(duration: 1).repeatForever()) { pulse.opacity = 0.3 }
        w.frames(from: 0.1, to: 1)
        #expect(!w.isStill(at: 1))
        w.scrollView("list").scroll(to: Point(x: 0, y: 600), animated: false)
        w.frames(from: 1, to: 3)
        #expect(w.isStill(at: 3), "a pulse scrolled out of sight draws nothing")
        w.scrollView("list").scroll(to: .zero, animated: false)
        w.frames(from: 3, to: 3.1)
        #expect(!w.isStill(at: 3.1))
    }

    /// A flick's end offset is the same with five views animating beside it.
    @Test func animationsLeaveAFlickAlone() throws {
        func flick(animating: Bool) throws -> Double {
            let hint = Label("Touch to start", id: "hint")
            let badges = (0..<4).map { Box(id: "badge-\($0)", fill: Color(rgb: 0x2A9D8F), width: 40, height: 40) }
            let sv = list(60)
            let w = try makeWindow(Stack(.vertical, children: [hint, Stack(.horizontal, children: badges), sv]))
            w.frames(from: 0, to: 0.05)
            if animating {
                withAnimation(.easeInOut(duration: 0.4).repeatForever()) { hint.opacity = 0.3 }
                withAnimation(.spring(response: 0.5, dampingFraction: 0.5)) {
                    for (i, b) in badges.enumerated() { b.offset = Point(x: Double(i * 10), y: 5); b.scaleEffect = 1.3 }
                }
            }
            let end = w.drag(from: Point(x: 200, y: 380), to: Point(x: 200, y: 200), at: 0.1, duration: 0.1)
            w.frames(from: end, to: end + 4)
            return w.scrollView("list").sampledOffset.y
        }
        let still = try flick(animating: false), moving = try flick(animating: true)
        #expect(still > 300)
        #expect(still == moving)
    }

    @Test func aShadowIsBlurredOnceAndRedrawnWhereTheViewMoves() throws {
        let (mask, margin) = AlphaMask.shadow(width: 80, height: 60, cornerRadius: 0, blur: 8)
        #expect(margin == 13 && mask.width == 106 && mask.height == 86)
        // Opaque well inside, clear at the mask's edge, half-way across the shape's edge (the two
        // pixels either side of it add up to opaque), the same on both sides.
        let middle = 43 * 106
        #expect(mask.coverage[middle + 53] == 255)
        #expect(mask.coverage[0] == 0)
        #expect(abs(Int(mask.coverage[middle + margin - 1]) + Int(mask.coverage[middle + margin]) - 255) <= 3)
        #expect(mask.coverage[middle + 20] == mask.coverage[middle + 105 - 20])
        try checkFramesEqualFullRedraws(
            "shadow",
            scene: { () -> View in
                let card = Box(id: "card", fill: .surface, cornerRadius: 14, width: 200, height: 100).shadow(radius: 10, y: 6)
                return Stack(.vertical, children: [Spacer(length: 40), card, list(20)]).padding(20)
            }, seconds: 1.5,
            at: [
                (0.2, { w in withAnimation(.easeInOut(duration: 0.6)) { w.root.view(withID: "card")!.offset = Point(x: 120, y: 30) } }),
                (1.0, { w in w.root.view(withID: "card")!.opacity = 0.5 }),
            ])
        let card = Box(id: "card", fill: .surface, cornerRadius: 14, width: 200, height: 100).shadow(radius: 10, y: 6)
        let w = try makeWindow(Stack(.vertical, children: [Spacer(length: 40), card]).padding(40), width: 320, height: 220)
        let frame = w.frames(from: 0, to: 0.1)
        assertGolden(frame, suite: "Animation", name: "shadow", maxChannelDelta: 1)
        #expect(w.rasterCache.shadowsMade == 1)
        w.colorScheme = .dark
        w.frames(from: 0.2, to: 0.3)
        #expect(w.rasterCache.shadowsMade == 1, "the same mask, not blurred again")
    }
}
