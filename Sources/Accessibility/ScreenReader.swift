import Geometry
import AppContract
import Gestures
import Localization
import Scrolling
@_spi(Hooks) import ViewCore

/// The screen reader's touch gestures, in the manner of VoiceOver: one finger touches
/// and moves to hear what is under it and activates nothing; a double tap anywhere activates
/// the element last spoken; a two-finger tap stops speech; a three-finger swipe scrolls a page
/// and says where you are; a one-finger swipe up or down on a page control (or another
/// adjustable element) changes it. A ring follows the element spoken. Scrolls it performs are
/// the engine's own program scrolls, with their usual physics.
package final class ScreenReader: TouchInterceptor {
    /// The window it reads, known only by what the screen reader needs of it.
    package unowned let window: ScreenReaderHost
    /// The element last spoken: what a double tap activates. When a data change rebuilt it (a
    /// lazy list rebuilds its rows when another row changes), the element with its id in the
    /// new tree takes its place, so the screen reader keeps its place.
    package var focused: View? {
        guard let view = spokenView else { return nil }
        guard view.host == nil, let id = view.id,
            let same = window.accessibilityElements().first(where: { $0.view.id == id })?.view
        else { return view }
        spokenView = same
        return same
    }
    private var spokenView: View?
    private var touches: [Int: (start: Point, last: Point)] = [:]
    private var fingers = 0
    private var gestureStart = 0.0
    private var taps = TapSequence()
    /// A finger that rests or moves is exploring; a quick tap is not (yet): it waits for a
    /// second tap before it says what is under it.
    private var exploring = false
    private var pendingTap: LoopTimer?
    /// Says what is under a finger that rests without moving (touch hardware sends no motion
    /// for a still finger): the element is spoken as the finger lands, as VoiceOver does.
    private var pendingRest: LoopTimer?
    /// The utterances said, newest last (the state JSON shows the last ones).
    package private(set) var utterances: [Utterance] = []

    /// A swipe (up or down: adjust; three fingers: a page) is at least `swipeDistance` points,
    /// faster than `swipeSpeed` points a second on average, and over within `swipeTime`: an
    /// ordinary flick of 80 points in a quarter of a second is one. Slower, it explores.
    static let tapDuration = 0.3, swipeDistance = 40.0, exploreDelay = 0.15, swipeSpeed = 250.0, swipeTime = 0.4

    package init(window: ScreenReaderHost) { self.window = window }

    /// The voice for an element: its language (set on the view, or Japanese, Arabic or Hebrew
    /// by its script), else the window's (its role is said in that language's words).
    private func voice(for element: AccessibilityElement) -> String {
        element.language ?? strings.language
    }

    /// The built-in words in the window's language.
    private var strings: BuiltInStrings { window.environment.strings }

    package func touch(_ phase: InputEvent.TouchPhase, slot: Int, at p: Point, time t: Double) {
        switch phase {
        case .down:
            if touches.isEmpty { fingers = 0; gestureStart = t; exploring = false }
            touches[slot] = (p, p)
            fingers = max(fingers, touches.count)
            // A finger still down after the explore delay explores where it rests; a tap (of a
            // double tap) has lifted by then and moves nothing.
            pendingRest?.cancel()
            pendingRest = fingers == 1 ? window.timers.after(Self.exploreDelay) { [weak self] in self?.fingerRests() } : nil
        case .move:
            guard let touch = touches[slot] else { return }
            touches[slot] = (touch.start, p)
            // Exploring: a finger resting or moving slowly over the screen says each element it
            // meets. A swipe (faster than `swipeSpeed`, within `swipeTime`) is not exploring.
            let elapsed = t - gestureStart, speed = (p - touch.start).length / max(elapsed, 1e-3)
            if fingers == 1, exploring || elapsed > Self.swipeTime || (elapsed > Self.exploreDelay && speed < Self.swipeSpeed) {
                exploring = true
                explore(at: p, time: t)
            }
        case .up, .cancel:
            // Where the finger was last seen: a lift carries no place of its own (libinput's
            // does not, and a script's may leave it out).
            guard let touch = touches.removeValue(forKey: slot) else { return }
            pendingRest?.cancel()
            pendingRest = nil
            if touches.isEmpty && phase == .up { finished(last: touch, at: touch.last, time: t) }
        }
    }

    private func fingerRests() {
        pendingRest = nil
        guard fingers == 1, touches.count == 1, let touch = touches.values.first,
            (touch.last - touch.start).length <= window.environment.gestures.touchSlop
        else { return }  // a finger on its way is the move handler's: a swipe or exploring
        exploring = true
        explore(at: touch.last, time: window.time)
    }

    private func finished(last touch: (start: Point, last: Point), at p: Point, time t: Double) {
        let moved = p - touch.start, quick = t - gestureStart < Self.tapDuration
        let gestures = window.environment.gestures
        let still = moved.length <= gestures.touchSlop
        switch fingers {
        case 1 where exploring:
            break
        case 1 where quick && still:
            if taps.tap(at: p, time: t, interval: gestures.doubleTapInterval, distance: gestures.doubleTapDistance) {
                pendingTap?.cancel()
                activate(time: t)
            } else {
                // One tap says what is under it, once no second tap has come.
                pendingTap?.cancel()
                pendingTap = window.timers.after(gestures.doubleTapInterval) { [weak self] in
                    guard let self else { return }
                    self.taps.reset()
                    self.explore(at: p, time: self.window.time)
                }
            }
        case 1 where still:
            explore(at: p, time: t)
        case 1 where t - gestureStart < Self.swipeTime && abs(moved.y) > Self.swipeDistance && abs(moved.y) > 2 * abs(moved.x):
            adjust(by: moved.y < 0 ? 1 : -1, time: t)
        case 2 where quick && still:
            stopSpeaking(at: t)
        case 3 where moved.length > Self.swipeDistance:
            scrollPage(moved, time: t)
        default:
            break
        }
    }

    // MARK: Actions

    package func explore(at p: Point, time t: Double) {
        guard let element = window.accessibilityElement(at: p), element.view !== focused else { return }
        setFocus(element.view)
        say(element.spokenText(in: strings), language: voice(for: element), at: t)
    }

    /// A modal view came or went: the element spoken is forgotten and, while the screen reader
    /// is on, the first element of what now shows is said (an alert's title).
    package func modalChanged() {
        setFocus(nil)
        guard window.isScreenReaderEnabled else { return }
        move(by: 1, time: window.currentTime)
    }

    private func setFocus(_ view: View?) {
        if let old = spokenView { window.invalidateRing(around: old) }
        spokenView = view
        if let view { window.invalidateRing(around: view) }
    }

    /// A double tap: the element last spoken does what a tap on it does (a field takes focus).
    private func activate(time t: Double) {
        guard let view = focused, view.host === window else { return }
        if let field = view as? TextInputClient {
            window.focus(field)
            say(strings.format(.editing, field.accessibilityDescription?.label ?? ""), language: strings.language, at: t)
            return
        }
        TouchRouter.deliverTap(from: view)
    }

    /// Swipe up or down on a page control or adjustable view: the next or previous page.
    private func adjust(by step: Int, time t: Double) {
        if let view = focused, let adjust = view.accessibility.adjust {
            adjust(step)
            let value = window.accessibilityElements().first { $0.view === view }?.value
            say(value ?? view.containedTexts.joined(separator: ", "), language: strings.language, at: t)
            return
        }
        guard let control = focused as? PageIndicator, control.pageCount > 0 else { return }
        let page = max(0, min(control.pageCount - 1, control.currentPage + step))
        guard control.turn(toPage: page) else { return }
        say(strings.format(.pageOf, page + 1, control.pageCount), language: strings.language, at: t)
    }

    /// Three fingers: a page of the scroll view around the spoken element (or the first that
    /// scrolls that way), then where it will rest.
    private func scrollPage(_ moved: Point, time t: Double) {
        let vertical = abs(moved.y) >= abs(moved.x)
        let around = focused.flatMap { v in
            // The element itself, when it is a scroll view, or the nearest around it.
            v.selfAndAncestors.lazy.compactMap { $0 as? ScrollingContainer }
                .first { $0.gestureAxes.contains(vertical ? .vertical : .horizontal) }
        }
        guard let sv = around ?? window.scrollViews.first(where: { $0.gestureAxes.contains(vertical ? .vertical : .horizontal) }) else {
            return
        }
        let forward = vertical ? moved.y < 0 : moved.x < 0
        let command: ScrollCommand = vertical ? (forward ? .pageDown : .pageUp) : (forward ? .pageRight : .pageLeft)
        sv.perform(command, at: t)
        window.scheduleFrame()
        say(sv.destinationDescription(at: t), language: strings.language, at: t)
    }

    package func stopSpeaking(at t: Double) { window.speech?.stop(at: t) }

    package func say(_ text: String, language: String, at t: Double) {
        let u = Utterance(t: t, text: text, lang: language)
        utterances.append(u)
        if utterances.count > 50 { utterances.removeFirst(utterances.count - 50) }
        window.speech?.speak(u)
    }

    package func turnedOff() { setFocus(nil); touches = [:]; taps.reset() }

    // MARK: Keypad

    /// Loudness, 0 to 1, set by the keypad's volume keys.
    private(set) var volume = 1.0

    /// A key of the keypad; true when the screen reader used it. The toggle works on and off;
    /// the others only while the screen reader is on.
    package func key(_ key: Key, mapping: KeypadMapping, time t: Double) -> Bool {
        guard let action = mapping.actions[key] else { return false }
        if action == .toggle {
            let on = !window.isScreenReaderEnabled
            if !on { say(strings[.screenReaderOff], language: strings.language, at: t) }
            window.isScreenReaderEnabled = on
            if on { say(strings[.screenReaderOn], language: strings.language, at: t) }
            return true
        }
        guard window.isScreenReaderEnabled else { return false }
        switch action {
        case .next: move(by: 1, time: t)
        case .previous: move(by: -1, time: t)
        case .activate: activate(time: t)
        case .back: if !window.navigateBack() { say(strings[.nothingToGoBackTo], language: strings.language, at: t) }
        case .repeat: if let last = utterances.last { say(last.text, language: last.lang, at: t) }
        case .volumeUp, .volumeDown:
            volume = max(0.1, min(1, volume + (action == .volumeUp ? 0.1 : -0.1)))
            window.speech?.setVolume(volume)
            say(strings.format(.volumePercent, Int((volume * 100).rounded())), language: strings.language, at: t)
        case .toggle: break
        }
        return true
    }

    /// The next or previous element on screen in reading order, brought into view and said.
    private func move(by step: Int, time t: Double) {
        let elements = window.accessibilityElements()
        guard !elements.isEmpty else { return }
        let n = elements.count
        let index = elements.firstIndex { $0.view === focused }.map { ($0 + step + n) % n } ?? (step > 0 ? 0 : n - 1)
        let element = elements[index]
        setFocus(element.view)
        element.view.revealInEnclosingContainers()
        say(element.spokenText(in: strings), language: voice(for: element), at: t)
    }
}

/// What the screen reader needs of the window it reads: the elements on screen and where each
/// is, focus and its ring, timers, speech, the back gesture, the scroll views a three-finger
/// swipe pages, and its own switch (the keypad turns it on and off).
package protocol ScreenReaderHost: ViewHost {
    /// The elements on screen in reading order.
    func accessibilityElements() -> [AccessibilityElement]
    /// The element under `p` (window points).
    func accessibilityElement(at p: Point) -> AccessibilityElement?
    /// Redraws the ring around `view`, where it was or will be.
    func invalidateRing(around view: View)
    /// The scroll views on screen, outer before inner.
    var scrollViews: [ScrollingContainer] { get }
    /// Where utterances go; nil without a sound device.
    var speech: SpeechOutput? { get }
    /// The screen reader's switch.
    var isScreenReaderEnabled: Bool { get set }
    /// Goes back a screen; false when there is none.
    func navigateBack() -> Bool
}
