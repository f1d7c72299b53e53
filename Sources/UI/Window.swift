import Geometry
import Logging
import Physics
import Raster
import Runtime
import Scrolling
import Text

/// The root of a screen and the `App` a frame loop drives (headless, DRM or remote): it lays
/// the view tree out at a scale factor, keeps track of the views that animate, draws what the
/// damage planner says changed, hands input to the touch router and the focus navigator, and
/// reports its state.
public final class Window: App {
    /// The view tree's root, laid out to fill the window.
    public let root: View
    /// The fonts every view draws text with.
    public let typography: Typography
    /// Pixels per point.
    public let scaleFactor: Double
    /// The window's width in pixels, rotation applied.
    public private(set) var pixelWidth: Int
    /// The window's height in pixels, rotation applied.
    public private(set) var pixelHeight: Int
    /// What shows where no view draws; iOS's grouped background grey by default.
    public var background = Color(rgb: 0xF2F2F7) { didSet { fullDamage = true } }
    /// Colour of the focus ring.
    public var accent = Color(rgb: 0x0A84FF)
    /// The time of the latest frame or input, seconds.
    package private(set) var currentTime = 0.0
    /// The view keys and the keypad act on (a focused text field, a list row), if any.
    public var focusedView: View? { navigator.focused }
    /// The object that built this window and handles its callbacks (an app controller); the
    /// window keeps it alive as long as it is shown.
    package var controller: AnyObject?

    /// Points a finger may move before a touch is a drag rather than a tap: one value for the
    /// whole window, given to every scroll view's engine and to every control.
    package var touchSlop = Window.defaultTouchSlop { didSet { needsCollect = true } }
    package static let defaultTouchSlop = 8.0
    /// How every scroll view draws a dragging finger: resampled at the frame time between the
    /// digitizer's samples, so a steady drag moves the same distance every frame whatever the
    /// panel's report rate (nil: the newest sample, which judders). Frames should be rendered
    /// at the time they are presented.
    package var touchResampling: TouchResampling? = TouchResampling() { didSet { needsCollect = true } }
    /// Seconds an input event may arrive after its own time and still count at that time.
    static let maximumInputLag = 0.1

    /// Scroll frames move the pixels already drawn and draw only what was exposed (RAS-3).
    /// The result equals a full redraw; off, every moved viewport is redrawn.
    package var reusesScrolledPixels: Bool {
        get { planner.reusesScrolledPixels }
        set { planner.reusesScrolledPixels = newValue }
    }

    var needsLayout = true
    /// Views were added or removed without a layout (a lazy list built rows): the animated
    /// views are collected again before the next frame or input.
    var needsCollect = false
    var fullDamage = true
    var pendingDamage = Region()
    var invalidatedViews: [View] = []
    var frameScheduled = true
    let rasterCache: RasterCache
    private(set) var scrollViews: [ScrollView] = []
    private(set) var animatedViews: [AnimatedView] = []
    /// The scroll view a finger, wheel or touchpad moved last: keys go there without focus.
    var lastScrolled: ScrollView?
    let holder: RootView
    /// The layout of the on-screen keyboard (`en`, `de`, `fr`, `ja`, `number`, `pin`; a board
    /// sets it from `keyboard_layout`); a field may ask for another.
    public var keyboardLayout = "en"
    /// When the on-screen keyboard shows (`onscreen_keyboard` on a board).
    package var onScreenKeyboard = OnScreenKeyboardMode.automatic
    /// A physical keyboard is attached (a board tells from its input devices): in the
    /// automatic mode, the on-screen keyboard then stays away.
    package var hasHardwareKeyboard = false { didSet { if hasHardwareKeyboard != oldValue { keyboardHost.hardwareKeyboardChanged() } } }
    /// A held physical key repeats after `keyRepeatDelay` seconds, `keyRepeatRate` times a
    /// second (0: never).
    package var keyRepeatDelay = 0.5
    package var keyRepeatRate = 25.0
    let keyboardHost = KeyboardHost()
    /// Where the screen reader's speech goes (a WAV headless, the sound card on a board).
    package var speech: SpeechOutput?
    /// The screen reader (A11Y-3): touches explore and speak instead of acting; a double tap
    /// activates what was said last.
    public var isScreenReaderEnabled = false {
        didSet { if !isScreenReaderEnabled { screenReader.turnedOff() }; scheduleFrame() }
    }
    private(set) lazy var screenReader = ScreenReader(window: self)
    /// The keypad's keys for the screen reader (`keypad` on a board).
    package var keypadMapping = KeypadMapping.standard
    /// Text size for the whole app, like Dynamic Type (A11Y-5): 1 (100 %) to 3 (300 %). Every
    /// label and field draws at its size times this; layouts adapt (stacks measure again,
    /// labels wrap or end with an ellipsis).
    public var textScale = 1.0 {
        didSet {
            let clamped = textScale.isFinite ? min(3, max(1, textScale)) : 1
            if clamped != textScale { textScale = clamped; return }
            if textScale != oldValue { needsLayout = true; fullDamage = true; frameScheduled = true }
        }
    }
    /// High contrast (A11Y-5): text black or white, light backgrounds white, borders black and
    /// at least 2 points, the focus ring black.
    public var isHighContrast = false { didSet { fullDamage = true; frameScheduled = true } }
    private lazy var planner = DamagePlanner(window: self)
    private lazy var router = TouchRouter(window: self)
    private lazy var navigator = FocusNavigator(window: self)

    /// - Parameters: size in pixels, scale factor (pixels per point), the fonts, and the root
    ///   view, which fills the window.
    public init(width: Int, height: Int, scaleFactor: Double = 1, typography: Typography, root: View) {
        pixelWidth = max(1, width); pixelHeight = max(1, height)
        self.scaleFactor = scaleFactor.isFinite && scaleFactor > 0 ? scaleFactor : 1
        self.typography = typography
        self.root = root
        let cache = RasterCache()
        rasterCache = cache
        images = ImageStore(cache: cache)
        holder = RootView()
        holder.owner = self
        holder.add(root)
        keyboardHost.window = self
        applyMemoryBudget()
        images.onFailure = { [weak self] source, reason in
            self?.log.warning("picture '\(source)' cannot be shown (its placeholder is): \(reason)")
        }
    }

    // MARK: Memory (issue 13)

    /// The pictures of `ImageView(source:)`, decoded and released within the memory budget.
    package let images: ImageStore
    package static let defaultMemoryBudget = 192 << 20
    /// Bytes the window's caches may hold beyond what the screen shows: the halved copies of
    /// reduced pictures get a quarter (at most 32 MB), decoded pictures the rest. The board
    /// sets it from `memory_budget_mb`.
    package var memoryBudget = Window.defaultMemoryBudget { didSet { applyMemoryBudget() } }

    private func applyMemoryBudget() {
        let budget = max(0, memoryBudget)
        rasterCache.maximumHalvingBytes = min(32 << 20, budget / 4)
        images.budgetBytes = budget - rasterCache.maximumHalvingBytes
    }

    /// What the window's pictures, glyphs and laid-out text hold now.
    package var memoryUse: MemoryUse {
        var textBytes = 0
        func walk(_ view: View) {
            if let label = view as? Label { textBytes += label.layoutBytes }
            view.children.forEach(walk)
        }
        walk(root)
        return MemoryUse(budget: max(0, memoryBudget), images: images.residentBytes, imageCount: images.residentCount,
                         imageDecodes: images.decodeCount, halvings: rasterCache.halvingBytes,
                         glyphs: typography.library.glyphCacheBytes, text: textBytes)
    }

    // MARK: Timers and work from other threads (APP-2)

    /// The window's timers and posted work, run by the loop on its clock.
    let timers = LoopScheduler()
    package var scheduler: LoopScheduler? { timers }

    /// Runs `action` every `seconds` on the loop's clock (headless: at exact virtual times),
    /// first `seconds` after now, or after the first frame when called before the loop runs.
    @discardableResult
    public func every(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        timers.every(seconds, action)
    }

    /// Runs `action` once, `seconds` from now on the loop's clock.
    @discardableResult
    public func after(_ seconds: Double, _ action: @escaping () throws -> Void) -> LoopTimer {
        timers.after(seconds, action)
    }

    /// Runs `work` on the loop's thread before the next frame; call it from any thread (it
    /// wakes a sleeping loop). To hand a result to views, use a `channel`: its handler runs on
    /// the loop and may touch views, while only the value crosses threads.
    @discardableResult
    public func post(_ work: @escaping @Sendable () -> Void) -> Bool { timers.post(work) }

    /// A mailbox whose `receive` runs on the loop's thread for each value sent from any thread.
    public func channel<Value: Sendable>(_ receive: @escaping (Value) -> Void) -> LoopChannel<Value> {
        timers.channel(receive)
    }

    /// The loop's time: inside a timer, the time it was due; else the time the loop last ran
    /// its timers (before each frame and input), or the latest frame or input before the loop ran.
    public var time: Double { timers.now ?? currentTime }

    /// The window's size in points: its pixels divided by the scale factor.
    public var sizeInPoints: Size { Size(width: Double(pixelWidth) / scaleFactor, height: Double(pixelHeight) / scaleFactor) }

    // MARK: Invalidation

    func invalidate(_ view: View) {
        // Where it was (now) and, at the next render, where it is then.
        if let r = pixelRect(visibleRect(of: view)) { pendingDamage.add(r) }
        invalidatedViews.append(view)
        frameScheduled = true
    }

    /// Asks for a frame even though nothing is animating (a program scroll was requested).
    package func scheduleFrame() { frameScheduled = true }

    /// Views joined or left the tree between layouts.
    func treeChanged() { needsCollect = true; frameScheduled = true }

    // MARK: Layout

    /// Lays the tree out now if anything changed (frames are then valid for `frameInWindow`).
    package func layoutIfNeeded() { layoutIfNeeded(at: currentTime) }

    func layoutIfNeeded(at t: Double) {
        guard needsLayout else { collectIfNeeded(at: t); return }
        for sv in scrollViews where sv.hasLaidOut { sv.holdPosition() }
        needsLayout = false
        holder.frame = Rect(origin: .zero, size: sizeInPoints)
        // A field outside scroll views moves up with the whole screen above the keyboard.
        root.frame = holder.frame.offsetBy(dx: 0, dy: -keyboardHost.pan)
        root.layoutChildren()
        keyboardHost.layout()
        collect()
        for sv in scrollViews { sv.applyLayout(at: t) }
        navigator.dropIfGone()
        fullDamage = true
    }

    /// Where the window reports what an app developer should know (a view laid out with no
    /// room for its content); the process's log unless set.
    package var log = processLog

    /// A view that holds content but was given no width or height shows nothing and takes no
    /// touches, silently: say so once, naming it.
    private func warnEmpty(_ view: View) {
        guard !view.warnedEmpty else { return }
        view.warnedEmpty = true
        let name = view.id.map { "'\($0)'" } ?? "without an id"
        log.warning("""
            \(String(describing: type(of: view))) \(name) was laid out \(view.frame.width)x\(view.frame.height) \
            points and shows none of its content: give it a size (.frame), or put it in a stack with room for it
            """)
    }

    private func collectIfNeeded(at t: Double) {
        guard needsCollect else { return }
        collect()
        for sv in scrollViews where !sv.hasLaidOut { sv.applyLayout(at: t) }
        navigator.dropIfGone()
    }

    /// The animated views and scroll views in tree order (outer before inner); views sampled
    /// after another (page controls) come after all the others. The same walk finds views
    /// laid out with no room for their content (the outermost of each such subtree).
    private func collect() {
        needsCollect = false
        scrollViews = []
        var independent: [AnimatedView] = [], dependent: [AnimatedView] = []
        func walk(_ v: View, insideEmpty: Bool = false) {
            guard !v.isHidden else { return }
            let empty = !v.children.isEmpty && (v.frame.width <= 0 || v.frame.height <= 0)
            if empty && !insideEmpty { warnEmpty(v) }
            if let animated = v as? AnimatedView {
                if (animated as? DependentAnimation)?.sampledAfter == nil { independent.append(animated) } else { dependent.append(animated) }
            }
            if let sv = v as? ScrollView {
                scrollViews.append(sv)
                if sv.configuration.touchSlop != touchSlop { sv.configuration.touchSlop = touchSlop }
                if sv.configuration.touchResampling != touchResampling { sv.configuration.touchResampling = touchResampling }
            }
            for c in v.children { walk(c, insideEmpty: insideEmpty || empty) }
        }
        walk(root)
        animatedViews = independent + dependent
    }

    // MARK: Geometry helpers

    /// `view`'s visible part in window points: its frame clipped by every clipping ancestor.
    func visibleRect(of view: View) -> Rect {
        var r = view.frameInWindow
        var p = view.parent
        while let a = p {
            if a.clipsContent { r = r.intersection(a.frameInWindow) }
            p = a.parent
        }
        return r.intersection(Rect(origin: .zero, size: sizeInPoints))
    }

    func pixelRect(_ r: Rect) -> IntRect? {
        guard !r.isEmpty else { return nil }
        let s = scaleFactor
        let px = IntRect(enclosing: Rect(x: r.minX * s - 1, y: r.minY * s - 1, width: r.width * s + 2, height: r.height * s + 2))
        let clipped = px.intersection(IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))
        return clipped.isEmpty ? nil : clipped
    }

    /// Samples every animated view at `t` in the collected order (a lazy list builds rows
    /// here, which may add animated views: they are sampled too), then the touches' pressed
    /// states.
    func sampleAnimatedViews(at t: Double) {
        keyboardHost.sample(at: t)
        if needsLayout { layoutIfNeeded(at: t) }
        for v in animatedViews { v.sample(at: t) }
        if needsCollect {
            collectIfNeeded(at: t)
            for v in animatedViews { v.sample(at: t) }
        }
        router.updatePresses(at: t)
    }

    // MARK: App

    package func resize(width: Int, height: Int) {
        pixelWidth = max(1, width); pixelHeight = max(1, height)
        needsLayout = true
        fullDamage = true
        frameScheduled = true
    }

    /// Still, with no finger on a scroll view's content or an indicator.
    package func isAtRest(at t: Double) -> Bool {
        isStill(at: t) && !router.isHolding && scrollViews.allSatisfy { $0.controller.isAtRest(at: t) }
    }

    /// Like `isAtRest`, but a finger that rests or holds still changes nothing: the loop draws
    /// no frames until the next input or timer.
    package func isStill(at t: Double) -> Bool {
        if needsLayout || needsCollect || frameScheduled || !pendingDamage.isEmpty || fullDamage { return false }
        if keyboardHost.isAnimating(at: t) { return false }
        for v in animatedViews {
            if let sv = v as? ScrollView {
                if !sv.isStill(at: t) { return false }
            } else if v.isAnimating(at: t) {
                return false
            }
        }
        return true
    }

    package func render(into frame: PixelBuffer, at t: Double) -> Region {
        currentTime = max(currentTime, t)
        if frame.width != pixelWidth || frame.height != pixelHeight { resize(width: frame.width, height: frame.height) }
        layoutIfNeeded(at: t)
        sampleAnimatedViews(at: t)
        var damage = pendingDamage
        pendingDamage = Region()
        for v in invalidatedViews where v.window === self {
            if let r = pixelRect(visibleRect(of: v)) { damage.add(r) }
        }
        invalidatedViews = []
        frameScheduled = false
        let plan = planner.plan(at: t, damage: damage, full: fullDamage)
        fullDamage = false
        if !plan.blits.isEmpty {
            let canvas = Canvas(frame, cache: rasterCache)
            for b in plan.blits { canvas.copy(rect: b.rect.offsetBy(dx: -b.dx, dy: -b.dy).intersection(b.rect), dx: b.dx, dy: b.dy) }
        }
        let rects = plan.damage.rects
        if renderThreads > 1 && !rects.isEmpty {
            // Recorded here, where views lay out, decode and rasterise glyphs; drawn in bands.
            let recorder = Canvas(recordingInto: displayList, span: frame.span, cache: rasterCache)
            for rect in rects { draw(rect, on: recorder, at: t) }
            let damaged = plan.damage.bounds
            let bands = bandRenderer
            let list = displayList
            withExtendedLifetime(frame) {
                bands.draw(rows: damaged.y..<damaged.maxY) { _, rows, cache in
                    var canvas = Canvas(span: frame.span, cache: cache)
                    canvas.clip(toDeviceRect: IntRect(x: 0, y: rows.lowerBound, width: frame.width, height: rows.count))
                    list.replay(on: canvas)
                }
            }
            displayList.removeAll()
        } else {
            for rect in rects { draw(rect, on: Canvas(frame, cache: rasterCache), at: t) }
        }
        images.frameEnded()
        return plan.changed
    }

    /// Threads drawing a frame's damage in horizontal bands (`render_threads`). With more than
    /// one, the frame is recorded on the calling thread and the bands replay it at once on
    /// Dispatch's workers: views' `draw(in:)` still runs on the calling thread only, and the
    /// pixels equal one thread's, bit for bit. Code that writes pixels itself must do it
    /// through `Canvas.drawPixels(_:)`. At most `BandRenderer.threadLimit` are used.
    package var renderThreads = 1

    private let displayList = DisplayList()
    private var bands: BandRenderer?

    /// The bands frames are drawn in (`renderThreads` threads): a display copies the frames to
    /// the screen in the same.
    package var bandRenderer: BandRenderer {
        let threads = min(max(renderThreads, 1), BandRenderer.threadLimit.upperBound)
        if let bands, bands.threads == threads { return bands }
        let made = BandRenderer(threads: threads)
        bands = made
        return made
    }

    /// Draws everything that intersects `rect` (device pixels), clipped to it, through
    /// `canvas`: the same pixels a full redraw gives there.
    func draw(_ rect: IntRect, on canvas: Canvas, at t: Double) {
        var canvas = canvas
        canvas.clip(toDeviceRect: rect)
        canvas.clear(color: (isHighContrast ? HighContrast.fill(background) : background).premultiplied)
        var context = DrawContext(canvas: canvas, typography: typography, scale: scaleFactor, time: t)
        context.isHighContrast = isHighContrast
        for layer in holder.children { context.drawChild(layer) }
        if let focused = focusedView {
            let r = visibleRect(of: focused)
            if !r.isEmpty {
                context.stroke(r.insetBy(dx: -3, dy: -3), cornerRadius: 8, lineWidth: 3, color: isHighContrast ? Color(rgb: 0x000000) : accent)
            }
        }
        // The screen reader's ring: black and white, seen on any background.
        if isScreenReaderEnabled, let spoken = screenReader.focused, spoken.window === self {
            let r = visibleRect(of: spoken)
            if !r.isEmpty {
                context.stroke(r.insetBy(dx: -5, dy: -5), cornerRadius: 9, lineWidth: 4, color: Color(rgb: 0x000000))
                context.stroke(r.insetBy(dx: -3, dy: -3), cornerRadius: 7, lineWidth: 2, color: Color(rgb: 0xFFFFFF))
            }
        }
    }

    // MARK: Focus and navigation

    /// Moves focus to `view` (nil clears it) and scrolls every enclosing scroll view the
    /// minimal amount to show it (POS-5).
    public func focus(_ view: View?) { navigator.focus(view) }

    /// Goes back one screen in the innermost navigation stack that can (Esc with nothing
    /// focused). Returns false when none can.
    @discardableResult
    public func navigateBack() -> Bool {
        for case let stack as NavigationStack in animatedViews.reversed() where stack.canPop && !stack.isTransitioning {
            stack.pop()
            return true
        }
        return false
    }

    // MARK: Input

    /// The views a ring is drawn around: the focused one, and the screen reader's.
    var ringViews: [View] {
        [focusedView, isScreenReaderEnabled ? screenReader.focused : nil].compactMap { $0 }.filter { $0.window === self }
    }

    func invalidateRing(around view: View) {
        if let r = pixelRect(visibleRect(of: view).insetBy(dx: -6, dy: -6)) { pendingDamage.add(r) }
        frameScheduled = true
    }

    package func handle(_ event: InputEvent) {
        var event = event
        if !event.time.isFinite {
            // Input at no usable time is dropped, except a lift: a finger must not stay down.
            guard case let .touch(phase, _, _) = event.kind, phase == .up || phase == .cancel else { return }
            event.time = currentTime
        }
        let now = max(currentTime, event.time)
        currentTime = now
        layoutIfNeeded(at: now)
        sampleAnimatedViews(at: now)
        frameScheduled = true
        // The engines get the event's own time even when it arrives after a frame drawn later
        // (a board reads input between frames): velocities and gestures then depend on when
        // the finger moved, not on when the loop got round to it, and a recording replays
        // the same. At most `maximumInputLag` back, so a bad timestamp cannot rewrite history.
        let t = max(event.time, now - Self.maximumInputLag)
        switch event.kind {
        case let .touch(phase, slot, position):
            if position.isFinite, abs(position.x) < 1e7, abs(position.y) < 1e7 {
                router.touch(phase, slot: slot, at: position / scaleFactor, time: t)
            } else if phase == .up || phase == .cancel {
                router.lift(slot: slot, time: t, cancelled: phase == .cancel)
            }
        case let .key(key, pressed):
            navigator.key(key, pressed: pressed, time: t)
        case let .text(text):
            navigator.type(text)
        case let .wheel(delta, position):
            guard delta.isFinite, position.isFinite else { return }
            router.wheel(delta / scaleFactor, at: position / scaleFactor, time: t)
        case let .fingerScroll(delta, position):
            guard delta.isFinite, position.isFinite else { return }
            router.fingerScroll(delta / scaleFactor, at: position / scaleFactor, time: t)
        case let .pointerMotion(position):
            guard position.isFinite else { return }
            router.pointerMoved(to: position / scaleFactor, time: t)
        case let .pointerButton(code, pressed, position):
            guard position.isFinite, code == 0x110 else { return }
            router.pointerButton(pressed: pressed, at: position / scaleFactor, time: t)
        case .touchFrame:
            break
        }
    }
}
