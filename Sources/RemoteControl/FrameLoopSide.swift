import Geometry
import Raster
import Runtime

extension RemoteServer {
    /// The file descriptor a frame loop adds to its poll(2) set (POLLIN): readable whenever a
    /// request is waiting. `pollRequests` drains it.
    package var wakeFD: Int32 { inbox.wakeReadFD }

    /// The loop-timeline time (seconds) by which `pollRequests` must be called again even if
    /// nothing else happens: the next scheduled injected event or `/wait` deadline. The loop caps
    /// its sleep at this.
    package var nextDeadline: Double? { inbox.nextDeadline }

    /// Under a virtual clock, the time the loop may run up to: pending work's horizon.
    package var pendingUntil: Double? { configuration.clock == .virtual ? inbox.horizon : nil }

    /// What one call of `pollRequests` serves its requests from.
    struct LoopMoment {
        var screen: PixelBuffer
        var rotation: Rotation
        var now: Double
        var frameNumber: Int
        var control: ScreenControl?
        var isScreenOn: Bool { control?.isScreenOn ?? true }
        var screenReason: ScreenReason { control?.screenReason ?? .on }
    }

    /// Serves the queued requests. Call it on the thread that owns `app`, at the top of every loop
    /// iteration (before deciding whether to draw), after a wake-up on `wakeFD`, and at
    /// `nextDeadline`.
    ///
    /// - `screen`: what a person sees now: the last presented buffer. A board passes the app's
    ///   shadow canvas (never the write-combined scanout) with the panel `rotation`, and the
    ///   screenshot is turned into the panel's orientation, as a person (or QEMU's screendump)
    ///   sees it. Injected coordinates stay canvas pixels, like `/state`'s frames.
    /// - `time`: now, on the timeline the app's events and `render(at:)` use (CLOCK_MONOTONIC
    ///   seconds on a board). Injected events are timed `time` + their script `t`.
    /// - `frameNumber`: frames presented so far; `/wait` reports rest only after a frame presented
    ///   after the last injected event.
    /// - `control`: the output behind `screen`, for `?source=scanout`, `POST /display` and the
    ///   `display` of `/state`; nil: it cannot be read back and is always on.
    /// - `deliver`: the loop's door for input (`FrameDriver.deliverInjected`), which every
    ///   injected event goes through.
    package func pollRequests(
        app: App, screen: PixelBuffer, rotation: Rotation = .none, time now: Double,
        frameNumber: Int, control: ScreenControl? = nil, deliver: (InputEvent) -> Void
    ) {
        let moment = LoopMoment(screen: screen, rotation: rotation, now: now, frameNumber: frameNumber, control: control)
        inbox.drainWakeups()
        serveIncoming(app: app, moment, deliver: deliver)
        applyDueEvents(moment, deliver: deliver)
        answerWaiters(app: app, moment)
    }

    /// Answers or takes on each request posted since the last poll, in order.
    private func serveIncoming(app: App, _ m: LoopMoment, deliver: (InputEvent) -> Void) {
        var emptyBatches: [CheckedContinuation<RemoteEventsReply?, Never>] = []
        var injected = false
        for request in inbox.takeIncoming() {
            switch request {
            case let .screenshot(source, mask, c):
                c.resume(returning: screenshot(source, mask: mask, app: app, m))
            case let .state(c):
                c.resume(returning: RemoteStateReply(json: stateJSON(app: app, m)))
            case let .audit(rules, c):
                c.resume(returning: auditor.map { RemoteStateReply(json: $0.check(app, m.screen, rules)) })
            case let .display(on, c):
                m.control?.setScreen(on: on, at: m.now)
                // Like an injection: a /wait after it waits for a frame drawn since (the screen
                // coming back shows the app, not the black it had).
                inbox.markInjected(atFrame: m.frameNumber)
                c.resume(returning: RemoteDisplayReply(on: m.isScreenOn))
            case let .events(script, batch, c):
                if script.entries.isEmpty {
                    emptyBatches.append(c)
                } else {
                    inbox.schedule(script, batch: batch, arrival: m.now, continuation: c)
                }
            case let .wait(timeout, untilRest, c):
                inbox.addWaiter(.init(since: m.now, deadline: m.now + timeout, untilRest: untilRest, continuation: c))
            case let .liveJoined(viewer):
                live.welcome(viewer, screen: m.screen, rotation: m.rotation, frameNumber: m.frameNumber)
            case let .liveInput(viewer, action):
                liveInput(viewer, action, at: m.now, deliver: deliver)
                injected = true
            case .metricsPing:
                metrics?.loopAnswered()
            case let .liveLeft(viewer):
                injected = liveLeft(viewer, at: m.now, deliver: deliver) || injected
            }
        }
        if injected { inbox.markInjected(atFrame: m.frameNumber) }
        for c in emptyBatches {
            c.resume(
                returning: RemoteEventsReply(
                    count: 0, arrival: m.now, firstApplied: m.now, lastApplied: m.now,
                    frameNumber: m.frameNumber))
        }
    }

    /// The colour a screenshot's mask paints: no app draws it by chance.
    static let maskColor: UInt32 = 0xFFFF_00FF

    private func screenshot(_ source: ScreenshotSource, mask: [String], app: App, _ m: LoopMoment) -> RemoteScreenshot {
        switch source {
        case .canvas:
            guard !mask.isEmpty else {
                return RemoteScreenshot(image: Self.panelImage(m.screen, rotation: m.rotation), frameNumber: m.frameNumber)
            }
            // Painted on a copy of the canvas, whose pixels the views' frames are in, then turned.
            let frames = mask.map { app.pixelFrame(ofViewWithID: $0) }
            let missing = zip(mask, frames).filter { $1 == nil }.map(\.0)
            guard missing.isEmpty else { return RemoteScreenshot(image: nil, frameNumber: m.frameNumber, missing: missing) }
            let canvas = PixelBuffer(copying: m.screen.span)
            let span = canvas.span
            for r in frames.compactMap({ $0?.intersection(canvas.bounds) }) where !r.isEmpty {
                for y in r.y..<r.maxY { (span.base + y * span.stride + r.x).update(repeating: Self.maskColor, count: r.width) }
            }
            return RemoteScreenshot(image: Self.panelImage(canvas, rotation: m.rotation), frameNumber: m.frameNumber)
        case .scanout:
            do {
                guard let control = m.control else { throw ReadBackUnsupported() }
                return RemoteScreenshot(image: try control.readBack(), frameNumber: m.frameNumber)
            } catch {
                return RemoteScreenshot(image: nil, frameNumber: m.frameNumber, failure: "\(error)")
            }
        }
    }

    private func stateJSON(app: App, _ m: LoopMoment) -> String {
        Runtime.stateJSON(app.stateJSON(at: m.now, frameNumber: m.frameNumber), screenOn: m.isScreenOn, reason: m.screenReason)
    }

    /// Delivers the injected events that are due and answers the batches they finish.
    private func applyDueEvents(_ m: LoopMoment, deliver: (InputEvent) -> Void) {
        let due = inbox.takeDue(at: m.now)
        guard !due.isEmpty else { return }
        for e in due {
            if e.isKey, case let .key(key, _) = e.event {
                InputEvent.keyStroke(key, at: e.time).forEach(deliver)
            } else {
                deliver(InputEvent(e.event, time: e.time))
            }
        }
        for (c, reply) in inbox.complete(due, at: m.now, frameNumber: m.frameNumber) { c.resume(returning: reply) }
    }

    /// Answers the waiters whose deadline has come, or all of them at rest: no injected event
    /// pending, the app idle, and a frame presented since the last injection.
    private func answerWaiters(app: App, _ m: LoopMoment) {
        let round = inbox.takeWaiters()
        guard !round.waiters.isEmpty else { return }
        let atRest = !round.eventsPending && m.frameNumber > round.injectedAtFrame && app.isAtRest(at: m.now)
        var keep: [RemoteInbox.Waiter] = []
        var json: String?  // the app's state is asked once, however many are answered
        for w in round.waiters {
            if (atRest && w.untilRest) || m.now >= w.deadline {
                let state = json ?? stateJSON(app: app, m)
                json = state
                w.continuation.resume(returning: RemoteWaitReply(atRest: atRest, waited: m.now - w.since, stateJSON: state))
            } else {
                keep.append(w)
            }
        }
        inbox.putBack(keep)
    }

    /// A frame changed `damage` of `screen`: live viewers are sent it.
    package func framePresented(_ screen: PixelBuffer, damage: Region, rotation: Rotation, frameNumber: Int) {
        live.framePresented(screen, damage: damage, rotation: rotation, frameNumber: frameNumber)
    }

    /// A live viewer's input line, now: its fingers get fresh slots, as a request's do.
    private func liveInput(_ viewer: Int, _ action: InputScript.Action, at now: Double, deliver: (InputEvent) -> Void) {
        switch action {
        case let .input(.touch(phase, id, p)):
            guard let slot = inbox.liveSlot(viewer: viewer, finger: id, phase: phase) else { return }
            deliver(InputEvent(.touch(phase, slot: slot, position: p), time: now))
        case let .input(.pointerButton(code, pressed, p)):
            inbox.setLiveButton(viewer: viewer, code: code, pressedAt: pressed ? p : nil)
            deliver(InputEvent(.pointerButton(code: code, pressed: pressed, position: p), time: now))
        case let .input(kind):
            deliver(InputEvent(kind, time: now))
        case let .key(key):
            InputEvent.keyStroke(key, at: now).forEach(deliver)
        case .screenshot, .state:
            break  // refused by the socket
        }
    }

    /// Lifts what a viewer that has gone still holds; true if it held anything.
    private func liveLeft(_ viewer: Int, at now: Double, deliver: (InputEvent) -> Void) -> Bool {
        let (fingers, buttons) = inbox.takeLiveHoldings(viewer: viewer)
        for slot in fingers.values.sorted() { deliver(InputEvent(.touch(.cancel, slot: slot, position: .zero), time: now)) }
        for (code, p) in buttons.sorted(by: { $0.key < $1.key }) {
            deliver(InputEvent(.pointerButton(code: code, pressed: false, position: p), time: now))
        }
        return !fingers.isEmpty || !buttons.isEmpty
    }

    /// A copy of `canvas` as the panel shows it when the display turns it by `rotation`.
    static func panelImage(_ canvas: PixelBuffer, rotation: Rotation) -> PixelBuffer {
        let size = rotation.canvasSize(panelWidth: canvas.width, panelHeight: canvas.height)  // the turn is its own size inverse
        let panel = PixelBuffer(width: size.width, height: size.height)
        copyDamage(
            from: canvas.span, to: panel.span, region: Region(canvas.bounds), rotation: rotation,
            bands: BandRenderer(threads: 1))
        return panel
    }

    /// Answers everything still queued with "stopped" (503) and refuses new requests. Call it when
    /// the frame loop exits.
    package func loopStopped() {
        let (incoming, batches, waiters) = inbox.shutDown()
        for r in incoming { r.answerStopped() }
        for b in batches { b.continuation.resume(returning: nil) }
        for w in waiters { w.continuation.resume(returning: nil) }
    }
}

extension RemoteServer: RemoteAccess {}
