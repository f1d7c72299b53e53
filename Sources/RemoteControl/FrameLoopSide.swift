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
    package var nextDeadline: Double? {
        inbox.state.withLock { s in
            let e = s.scheduled.lazy.map(\.time).min()
            let w = s.waiters.lazy.map(\.deadline).min()
            switch (e, w) {
            case let (a?, b?): return min(a, b)
            case let (a?, nil): return a
            case let (nil, b?): return b
            case (nil, nil): return nil
            }
        }
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
    package func pollRequests(app: App, screen: PixelBuffer, rotation: Rotation = .none, time now: Double,
                             frameNumber: Int, control: ScreenControl? = nil, deliver: (InputEvent) -> Void) {
        let isOn = { control?.isScreenOn ?? true }
        inbox.drainWakeups()
        let incoming = inbox.state.withLock { s -> [RemoteRequest] in
            let r = s.incoming
            s.incoming.removeAll()
            return r
        }
        var emptyBatches: [CheckedContinuation<RemoteEventsReply?, Never>] = []
        var injected = false
        for request in incoming {
            switch request {
            case let .screenshot(.canvas, c):
                c.resume(returning: RemoteScreenshot(image: Self.panelImage(screen, rotation: rotation), frameNumber: frameNumber))
            case let .screenshot(.scanout, c):
                do {
                    guard let control else { throw ReadBackUnsupported() }
                    c.resume(returning: RemoteScreenshot(image: try control.readBack(), frameNumber: frameNumber))
                } catch {
                    c.resume(returning: RemoteScreenshot(image: nil, frameNumber: frameNumber, failure: "\(error)"))
                }
            case let .state(c):
                c.resume(returning: RemoteStateReply(json: stateJSON(app.stateJSON(at: now, frameNumber: frameNumber), screenOn: isOn())))
            case let .display(on, c):
                control?.setScreen(on: on, at: now)
                // Like an injection: a /wait after it waits for a frame drawn since (the screen
                // coming back shows the app, not the black it had).
                inbox.state.withLock { $0.injectedAtFrame = frameNumber }
                c.resume(returning: RemoteStateReply(json: "{\"on\":\(isOn())}"))
            case let .events(script, batch, c):
                if script.entries.isEmpty {
                    emptyBatches.append(c)
                    continue
                }
                schedule(script, batch: batch, arrival: now, continuation: c)
            case let .wait(timeout, c):
                inbox.state.withLock { $0.waiters.append(.init(since: now, deadline: now + timeout, continuation: c)) }
            case let .liveJoined(viewer):
                live.welcome(viewer, screen: screen, rotation: rotation, frameNumber: frameNumber)
            case let .liveInput(viewer, action):
                liveInput(viewer, action, at: now, deliver: deliver)
                injected = true
            case let .liveLeft(viewer):
                injected = liveLeft(viewer, at: now, deliver: deliver) || injected
            }
        }
        if injected { inbox.state.withLock { $0.injectedAtFrame = frameNumber } }
        for c in emptyBatches {
            c.resume(returning: RemoteEventsReply(count: 0, arrival: now, firstApplied: now, lastApplied: now, frameNumber: frameNumber))
        }

        // Injected events that are due, in time order (ties in arrival order).
        let due = inbox.state.withLock { s -> [RemoteInbox.Scheduled] in
            guard s.scheduled.contains(where: { $0.time <= now }) else { return [] }
            let d = s.scheduled.filter { $0.time <= now }
            s.scheduled.removeAll { $0.time <= now }
            return d
        }
        for e in due {
            let t = e.time
            if e.isKey, case let .key(key, _) = e.event {
                InputEvent.keyStroke(key, at: t).forEach(deliver)
            } else {
                deliver(InputEvent(e.event, time: t))
            }
        }
        if !due.isEmpty {
            let finished = inbox.state.withLock { s -> [(CheckedContinuation<RemoteEventsReply?, Never>, RemoteEventsReply)] in
                s.injectedAtFrame = frameNumber
                var done: [(CheckedContinuation<RemoteEventsReply?, Never>, RemoteEventsReply)] = []
                for e in due {
                    guard var b = s.batches[e.batch] else { continue }
                    b.remaining -= 1
                    if b.firstApplied == nil { b.firstApplied = now }
                    if b.remaining == 0 {
                        s.batches[e.batch] = nil
                        done.append((b.continuation, RemoteEventsReply(count: b.count, arrival: b.arrival,
                                                                       firstApplied: b.firstApplied ?? now,
                                                                       lastApplied: now, frameNumber: frameNumber)))
                    } else {
                        s.batches[e.batch] = b
                    }
                }
                return done
            }
            for (c, reply) in finished { c.resume(returning: reply) }
        }

        // Waiters: at rest means no injected event pending, the app idle, and a frame presented
        // since the last injection.
        let waiters = inbox.state.withLock { s -> [RemoteInbox.Waiter] in
            let w = s.waiters
            s.waiters.removeAll()
            return w
        }
        if !waiters.isEmpty {
            let (pending, injectedAt) = inbox.state.withLock { ($0.scheduled.count, $0.injectedAtFrame) }
            let atRest = pending == 0 && frameNumber > injectedAt && app.isAtRest(at: now)
            var keep: [RemoteInbox.Waiter] = []
            var json: String?
            for w in waiters {
                if atRest || now >= w.deadline {
                    let state = json ?? stateJSON(app.stateJSON(at: now, frameNumber: frameNumber), screenOn: isOn())
                    json = state
                    w.continuation.resume(returning: RemoteWaitReply(atRest: atRest, waited: now - w.since, stateJSON: state))
                } else {
                    keep.append(w)
                }
            }
            if !keep.isEmpty { inbox.state.withLock { $0.waiters.append(contentsOf: keep) } }
        }
    }

    /// A frame changed `damage` of `screen`: live viewers are sent it.
    package func framePresented(_ screen: PixelBuffer, damage: Region, rotation: Rotation, frameNumber: Int) {
        live.framePresented(screen, damage: damage, rotation: rotation, frameNumber: frameNumber)
    }

    /// A live viewer's input line, now: its fingers get fresh slots, as a request's do.
    private func liveInput(_ viewer: Int, _ action: InputScript.Action, at now: Double, deliver: (InputEvent) -> Void) {
        switch action {
        case let .input(.touch(phase, id, p)):
            let slot = inbox.state.withLock { s -> Int in
                if let slot = s.liveFingers[viewer]?[id] {
                    if phase == .up || phase == .cancel { s.liveFingers[viewer]?[id] = nil }
                    return slot
                }
                let slot = s.freshSlot()
                if phase == .down || phase == .move { s.liveFingers[viewer, default: [:]][id] = slot }
                return slot
            }
            deliver(InputEvent(.touch(phase, slot: slot, position: p), time: now))
        case let .input(.pointerButton(code, pressed, p)):
            inbox.state.withLock { s in s.liveButtons[viewer, default: [:]][code] = pressed ? p : nil }
            deliver(InputEvent(.pointerButton(code: code, pressed: pressed, position: p), time: now))
        case let .input(kind):
            deliver(InputEvent(kind, time: now))
        case let .key(key):
            InputEvent.keyStroke(key, at: now).forEach(deliver)
        case .screenshot, .state:
            break   // refused by the socket
        }
    }

    /// Lifts what a viewer that has gone still holds; true if it held anything.
    private func liveLeft(_ viewer: Int, at now: Double, deliver: (InputEvent) -> Void) -> Bool {
        let (fingers, buttons) = inbox.state.withLock { s in
            (s.liveFingers.removeValue(forKey: viewer) ?? [:], s.liveButtons.removeValue(forKey: viewer) ?? [:])
        }
        for slot in fingers.values.sorted() { deliver(InputEvent(.touch(.cancel, slot: slot, position: .zero), time: now)) }
        for (code, p) in buttons.sorted(by: { $0.key < $1.key }) {
            deliver(InputEvent(.pointerButton(code: code, pressed: false, position: p), time: now))
        }
        return !fingers.isEmpty || !buttons.isEmpty
    }

    /// A copy of `canvas` as the panel shows it when the display turns it by `rotation`.
    static func panelImage(_ canvas: PixelBuffer, rotation: Rotation) -> PixelBuffer {
        let size = rotation.canvasSize(panelWidth: canvas.width, panelHeight: canvas.height)   // the turn is its own size inverse
        let panel = PixelBuffer(width: size.width, height: size.height)
        copyDamage(from: canvas.span, to: panel.span, region: Region(canvas.bounds), rotation: rotation,
                   bands: BandRenderer(threads: 1))
        return panel
    }

    /// Times a script's events from `arrival` and gives its fingers fresh slots.
    private func schedule(_ script: InputScript, batch: Int, arrival: Double,
                          continuation: CheckedContinuation<RemoteEventsReply?, Never>) {
        inbox.state.withLock { s in
            var slots: [Int: Int] = [:]
            var count = 0
            for entry in script.entries {
                let t = arrival + entry.t / 1000
                switch entry.action {
                case let .input(kind):
                    var k = kind
                    if case let .touch(phase, id, p) = kind {
                        let slot: Int
                        if let existing = slots[id] {
                            slot = existing
                        } else {
                            slot = s.freshSlot()
                            slots[id] = slot
                        }
                        if phase == .up || phase == .cancel { slots[id] = nil }
                        k = .touch(phase, slot: slot, position: p)
                    }
                    s.scheduled.append(.init(time: t, event: k, isKey: false, batch: batch))
                case let .key(key):
                    s.scheduled.append(.init(time: t, event: .key(key, pressed: true), isKey: true, batch: batch))
                case .screenshot, .state:
                    continue   // refused by the HTTP side; never scheduled
                }
                count += 1
            }
            s.batches[batch] = .init(count: count, remaining: count, arrival: arrival, firstApplied: nil,
                                     continuation: continuation)
        }
    }

    /// Answers everything still queued with "stopped" (503) and refuses new requests. Call it when
    /// the frame loop exits.
    package func loopStopped() {
        let (incoming, batches, waiters) = inbox.state.withLock { s in
            s.closed = true
            let r = (s.incoming, Array(s.batches.values), s.waiters)
            s.incoming.removeAll(); s.batches.removeAll(); s.waiters.removeAll(); s.scheduled.removeAll()
            return r
        }
        for r in incoming {
            switch r {
            case let .screenshot(_, c): c.resume(returning: nil)
            case let .state(c), let .display(_, c): c.resume(returning: nil)
            case let .events(_, _, c): c.resume(returning: nil)
            case let .wait(_, c): c.resume(returning: nil)
            case .liveJoined, .liveInput, .liveLeft: break
            }
        }
        for b in batches { b.continuation.resume(returning: nil) }
        for w in waiters { w.continuation.resume(returning: nil) }
    }
}

extension RemoteServer: RemoteAccess {}
