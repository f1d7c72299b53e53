@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import Video
import FoundationEssentials
import Geometry
import AppContract
import Scrolling

/// The UI state a test reads: every scroll view and page control on screen with
/// its id, and the visible tappable or focusable views with ids. `frame` is the element's
/// visible rectangle on screen in pixels (where to touch); other lengths are points.
package struct WindowState: Codable, Hashable, Sendable {
    package struct ScrollViewState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        package var frame: [Double]
        package var offset: [Double]
        package var contentSize: [Double]
        package var viewportSize: [Double]
        package var scale: Double
        package var phase: String
        package var atRest: Bool
        @ExplicitNull package var topId: String?
        @ExplicitNull package var page: Int?
        @ExplicitNull package var pageCount: Int?
    }
    /// A video on screen: the point of the clip shown and its length in seconds (null until
    /// known), and "playing", "paused", "ended" or "failed" (with why in `error`).
    package struct VideoState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        package var frame: [Double]
        package var position: Double
        @ExplicitNull package var duration: Double?
        package var state: String
        @ExplicitNull package var error: String?
    }
    package struct PageControlState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        package var frame: [Double]
        package var currentPage: Int
        package var pageCount: Int
        package var interaction: String
        package var background: String
    }
    /// A visible view with an id that reacts to a tap or takes focus (a tab, a card, a row), so a
    /// remote test can find where to touch without knowing the view tree.
    package struct ElementState: Codable, Hashable, Sendable {
        package var id: String
        package var frame: [Double]
        package var tappable: Bool
        package var focusable: Bool
        /// Takes a long press (`onLongPress`).
        package var longPressable: Bool
        /// A touch presses it now (`View.isPressed`).
        package var pressed: Bool
    }
    /// A navigation stack on screen: its screens' ids from the bottom, and the slide running.
    package struct NavigationState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        package var frame: [Double]
        package var depth: Int
        package var screens: [String?]
        /// "none", "push", "pop", or "interactive" (an edge swipe, held or released).
        package var transition: String
    }
    /// A text field or text area on screen. A secure field's text is its dots.
    package struct TextFieldState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        package var text: String
        /// The selection as character offsets `[start, end]` (equal: the caret).
        package var selection: [Int]
        package var frame: [Double]
        package var focused: Bool
        package var secure: Bool
        package var contentType: String
    }
    /// The on-screen keyboard: where its keys are, so a test can tap one.
    package struct KeyboardState: Codable, Hashable, Sendable {
        package struct KeyState: Codable, Hashable, Sendable {
            package var label: String
            package var frame: [Double]
        }
        /// Some of it is on screen.
        package var visible: Bool
        /// Where the keys are (pixels); empty while hidden.
        package var frame: [Double]
        package var layout: String
        /// "letters", "symbols" or "more" (pages of the layout; some layouts add "accents",
        /// "marks" or "latin"), "pad" for the number and PIN pads.
        package var page: String
        package var shift: String
        package var keys: [KeyState]
    }
    /// A control on screen (`Button`, `Toggle`, `Slider`, `Stepper`, `Picker`, `ProgressView`).
    package struct ControlState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        /// "button", "toggle", "slider", "stepper", "picker" or "progress".
        package var kind: String
        /// A toggle's 0 or 1, a slider's or stepper's number, a picker's selected index, a
        /// progress bar's fraction; null for a button and a spinner.
        @ExplicitNull package var value: Double?
        package var enabled: Bool
        package var frame: [Double]
    }
    /// The alert, dialog or sheet on top, while one shows.
    package struct ModalState: Codable, Hashable, Sendable {
        @ExplicitNull package var id: String?
        /// "alert", "dialog" or "sheet".
        package var kind: String
        @ExplicitNull package var title: String?
        package var frame: [Double]
    }
    package var t: Double
    package var frameNumber: Int
    package var scrollViews: [ScrollViewState]
    package var pageControls: [PageControlState]
    package var elements: [ElementState]
    package var navigation: [NavigationState] = []
    package var videos: [VideoState] = []
    package var textFields: [TextFieldState] = []
    package var controls: [ControlState] = []
    @ExplicitNull package var modal: ModalState?
    /// An element of the accessibility tree.
    package struct AccessibilityState: Codable, Hashable, Sendable {
        package var role: String
        package var label: String
        @ExplicitNull package var value: String?
        package var frame: [Double]
    }
    /// The accessibility tree on screen, in reading order.
    package var accessibility: [AccessibilityState] = []
    /// The screen reader is on.
    package var screenReader = false
    /// What it said last (the last ten), `t` in seconds.
    package var utterances: [Utterance] = []
    package var keyboard: KeyboardState?
    @ExplicitNull package var focus: String?
    /// Bytes held by the window's pictures, glyphs and text, and its budget.
    package var memory: MemoryUse
    /// The app's language, a BCP 47 tag ("ar"), and its layout direction: "ltr" or "rtl".
    package var language = "en"
    package var layoutDirection = "ltr"
}

/// An optional written as `null` when it has no value, not left out, so that a client reading
/// `page` or `focus` finds the key either way (synthesized `Codable` skips absent optionals).
@propertyWrapper
package struct ExplicitNull<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    package var wrappedValue: Value?
    package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as for a plain optional.
    func decode<V>(_ type: ExplicitNull<V>.Type, forKey key: Key) throws -> ExplicitNull<V> {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }
}

func rounded(_ v: Double, _ places: Double = 1000) -> Double { (v * places).rounded() / places }

/// A view the state JSON lists in a section of its own (scroll views, page controls,
/// navigation stacks): it says itself what a test should know of it.
package protocol StateReporter: View {
    /// Adds this view to `state`; `frame` is the visible part of it in canvas pixels.
    func report(into state: inout WindowState, frame: [Double], at t: Double)
}

/// A text field in the state JSON: its text as shown, selection, focus and kind.
package protocol FieldStateReporter: View {
    func fieldState(frame: [Double]) -> WindowState.TextFieldState
}

extension TextInputView: FieldStateReporter {
    package func fieldState(frame: [Double]) -> WindowState.TextFieldState {
        let sel = selection
        return .init(
            id: id, text: displayedText, selection: [sel.lowerBound, sel.upperBound], frame: frame, focused: isFocused,
            secure: isSecure, contentType: contentType.rawValue)
    }
}

extension ScrollView: StateReporter {
    package func report(into state: inout WindowState, frame: [Double], at t: Double) {
        let engine = controller.state(at: t)
        // Right to left, x counts from the right end: the offset means the same in both.
        let offset = engineOffset(engine.offset)
        let paging = configuration.isPagingEnabled
        state.scrollViews.append(
            .init(
                id: id, frame: frame,
                offset: [rounded(offset.x), rounded(offset.y)],
                contentSize: [rounded(content.frame.width), rounded(content.frame.height)],
                viewportSize: [rounded(self.frame.width), rounded(self.frame.height)],
                scale: rounded(engine.scale, 10000), phase: engine.phase.rawValue, atRest: engine.phase == .idle,
                topId: reportedID, page: paging ? currentPage : nil, pageCount: paging ? pageCount : nil))
    }
}

extension NavigationStack: StateReporter {
    package func report(into state: inout WindowState, frame: [Double], at t: Double) {
        state.navigation.append(
            .init(
                id: id, frame: frame, depth: screens.count, screens: screens.map(\.id),
                transition: stateKind))
    }
}

extension VideoView: StateReporter {
    package func report(into state: inout WindowState, frame: [Double], at t: Double) {
        state.videos.append(
            .init(
                id: id, frame: frame, position: rounded(position), duration: duration.map { rounded($0) }, state: playbackState.rawValue,
                error: failure))
    }
}

extension PageControl: StateReporter {
    package func report(into state: inout WindowState, frame: [Double], at t: Double) {
        state.pageControls.append(
            .init(
                id: id, frame: frame, currentPage: currentPage, pageCount: pageCount,
                interaction: interaction.rawValue, background: backgroundStyle.rawValue))
    }
}

extension Window {
    /// The state at `t` (samples the engines at `t`).
    package func state(at t: Double, frameNumber: Int) -> WindowState {
        layoutIfNeeded(at: t)
        sampleAnimatedViews(at: t)
        let s = scaleFactor
        func pixels(_ r: Rect) -> [Double] { [rounded(r.minX * s), rounded(r.minY * s), rounded(r.width * s), rounded(r.height * s)] }
        var state = WindowState(
            t: rounded(t), frameNumber: frameNumber, scrollViews: [], pageControls: [],
            elements: [], navigation: [], focus: focusedView?.id, memory: memoryUse)
        state.language = language
        state.layoutDirection = layoutDirection == .rightToLeft ? "rtl" : "ltr"
        for case let v as StateReporter in animatedViews {
            let visible = visibleRect(of: v)
            if !visible.isEmpty { v.report(into: &state, frame: pixels(visible), at: t) }
        }
        func collectElements(_ v: View) {
            guard !v.isHidden else { return }
            if let c = v as? ControlReporter {
                let visible = visibleRect(of: c)
                if !visible.isEmpty {
                    state.controls.append(
                        .init(
                            id: c.id, kind: c.controlKind, value: c.controlValue.map { rounded($0) }, enabled: c.isEnabled,
                            frame: pixels(visible)))
                }
            }
            if let id = v.id, v.onTap != nil || v.onLongPress != nil || v.isFocusable {
                let visible = visibleRect(of: v)
                if !visible.isEmpty {
                    state.elements.append(
                        .init(
                            id: id, frame: pixels(visible), tappable: v.onTap != nil, focusable: v.isFocusable,
                            longPressable: v.onLongPress != nil, pressed: v.isPressed))
                }
            }
            for c in v.children { collectElements(c) }
        }
        // The app, then the edit menu; only the modal on top while one shows.
        for layer in readableLayers { collectElements(layer) }
        if let modal = presentedModal {
            state.modal = .init(id: modal.id, kind: modal.modalKind, title: modal.modalTitle, frame: pixels(visibleRect(of: modal)))
        }
        state.textFields = textFieldStates(pixels)
        state.accessibility = accessibilityElements().map {
            .init(role: $0.role.rawValue, label: $0.label, value: $0.value, frame: pixels($0.frame))
        }
        state.screenReader = isScreenReaderEnabled
        state.utterances = Array(screenReader.utterances.suffix(10))
        state.keyboard = keyboardHost.state(scale: s)
        return state
    }

    /// The text fields on screen, outermost first (a text area's own inner views are not listed).
    private func textFieldStates(_ pixels: (Rect) -> [Double]) -> [WindowState.TextFieldState] {
        var fields: [WindowState.TextFieldState] = []
        func collect(_ v: View) {
            guard !v.isHidden else { return }
            if let f = v as? FieldStateReporter {
                let visible = visibleRect(of: f)
                if !visible.isEmpty {
                    fields.append(f.fieldState(frame: pixels(visible)))
                }
                return
            }
            for c in v.children { collect(c) }
        }
        collect(root)
        return fields
    }

    package func stateJSON(at t: Double, frameNumber: Int) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state(at: t, frameNumber: frameNumber)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
