@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import Geometry
import Raster
import AppContract

/// Input reaches the window's helpers here: touches and pointers to the touch router, keys
/// and typed text to the focus navigator.
extension Window {
    /// A held physical key repeats after `keyRepeatDelay` seconds, `keyRepeatRate` times a
    /// second (0: never).
    package var keyRepeatDelay: Double {
        get { navigator.keyRepeatDelay }
        set { navigator.keyRepeatDelay = newValue }
    }
    package var keyRepeatRate: Double {
        get { navigator.keyRepeatRate }
        set { navigator.keyRepeatRate = newValue }
    }

    /// Moves focus to `view` (nil clears it) and scrolls every enclosing scroll view the
    /// minimal amount to show it.
    public func focus(_ view: View?) { navigator.focus(view) }

    /// Goes back one screen in the innermost navigation stack that can (Esc with nothing
    /// focused). Returns false when none can.
    @discardableResult
    public func navigateBack() -> Bool {
        if cancelPresentedModal() { return true }
        for case let stack as BackNavigating in animatedViews.reversed() where stack.canGoBack {
            stack.goBack()
            return true
        }
        return false
    }

    // MARK: Input

    /// The views a ring is drawn around: the focused one, and the screen reader's.
    var ringViews: [View] {
        [focusedView, isScreenReaderEnabled ? screenReader.focused : nil].compactMap { $0 }.filter { $0.window === self }
    }

    package func invalidateRing(around view: View) {
        if let r = pass.ringRect(around: view) { pendingDamage.add(r) }
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
        inputArrived(at: now)
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
            navigator.key(key, pressed: pressed, time: t, scrollViews: scrollViews, lastScrolled: router.lastScrolled)
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
