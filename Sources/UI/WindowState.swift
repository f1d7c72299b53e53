import FoundationEssentials
import Geometry
import Runtime
import Scrolling

/// The UI state a test reads (HL-1, REM-1): every scroll view and page control on screen with
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
    /// A text field or text area on screen (TXT-1). A secure field's text is its dots.
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
    /// The on-screen keyboard (TXT-2): where its keys are, so a test can tap one.
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
        /// "letters", "symbols" or "more" (pages of the layout), "pad" for the number and PIN pads.
        package var page: String
        package var shift: String
        package var keys: [KeyState]
    }
    package var t: Double
    package var frameNumber: Int
    package var scrollViews: [ScrollViewState]
    package var pageControls: [PageControlState]
    package var elements: [ElementState]
    package var navigation: [NavigationState] = []
    package var textFields: [TextFieldState] = []
    /// An element of the accessibility tree (A11Y-1).
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

extension Window {
    /// The state at `t` (samples the engines at `t`).
    package func state(at t: Double, frameNumber: Int) -> WindowState {
        layoutIfNeeded(at: t)
        sampleAnimatedViews(at: t)
        let s = scaleFactor
        func pixels(_ r: Rect) -> [Double] { [rounded(r.minX * s), rounded(r.minY * s), rounded(r.width * s), rounded(r.height * s)] }
        var scrolls: [WindowState.ScrollViewState] = []
        var controls: [WindowState.PageControlState] = []
        var navigation: [WindowState.NavigationState] = []
        for v in animatedViews {
            let visible = visibleRect(of: v)
            guard !visible.isEmpty else { continue }
            if let sv = v as? ScrollView {
                let engine = sv.controller.state(at: t)
                let paging = sv.configuration.isPagingEnabled
                scrolls.append(.init(
                    id: sv.id, frame: pixels(visible),
                    offset: [rounded(engine.offset.x), rounded(engine.offset.y)],
                    contentSize: [rounded(sv.content.frame.width), rounded(sv.content.frame.height)],
                    viewportSize: [rounded(sv.frame.width), rounded(sv.frame.height)],
                    scale: rounded(engine.scale, 10000), phase: engine.phase.rawValue, atRest: engine.phase == .idle,
                    topId: sv.reportedID, page: paging ? sv.currentPage : nil, pageCount: paging ? sv.pageCount : nil))
            } else if let nav = v as? NavigationStack {
                navigation.append(.init(id: nav.id, frame: pixels(visible), depth: nav.screens.count,
                                        screens: nav.screens.map(\.id), transition: nav.stateKind))
            } else if let pc = v as? PageControl {
                controls.append(.init(id: pc.id, frame: pixels(visible), currentPage: pc.currentPage,
                                      pageCount: pc.pageCount, interaction: pc.interaction.rawValue,
                                      background: pc.backgroundStyle.rawValue))
            }
        }
        var elements: [WindowState.ElementState] = []
        func collectElements(_ v: View) {
            guard !v.isHidden else { return }
            if let id = v.id, v.onTap != nil || v.onLongPress != nil || v.isFocusable {
                let visible = visibleRect(of: v)
                if !visible.isEmpty {
                    elements.append(.init(id: id, frame: pixels(visible), tappable: v.onTap != nil, focusable: v.isFocusable,
                                          longPressable: v.onLongPress != nil, pressed: v.isPressed))
                }
            }
            for c in v.children { collectElements(c) }
        }
        for layer in holder.children { collectElements(layer) }   // the app, then the edit menu
        var fields: [WindowState.TextFieldState] = []
        func collectFields(_ v: View) {
            guard !v.isHidden else { return }
            if let f = v as? TextInputView {
                let visible = visibleRect(of: f)
                if !visible.isEmpty {
                    let sel = f.selection
                    fields.append(.init(id: f.id, text: f.displayedText, selection: [sel.lowerBound, sel.upperBound],
                                        frame: pixels(visible), focused: f.isFocused, secure: f.isSecure,
                                        contentType: f.contentType.rawValue))
                }
                return
            }
            for c in v.children { collectFields(c) }
        }
        collectFields(root)
        var state = WindowState(t: rounded(t), frameNumber: frameNumber, scrollViews: scrolls, pageControls: controls,
                                elements: elements, navigation: navigation, focus: focusedView?.id, memory: memoryUse)
        state.textFields = fields
        state.accessibility = accessibilityElements().map {
            .init(role: $0.role.rawValue, label: $0.label, value: $0.value, frame: pixels($0.frame))
        }
        state.screenReader = isScreenReaderEnabled
        state.utterances = Array(screenReader.utterances.suffix(10))
        state.keyboard = keyboardHost.state(scale: s)
        return state
    }

    package func stateJSON(at t: Double, frameNumber: Int) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state(at: t, frameNumber: frameNumber)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
