import Geometry

/// Input as the app sees it, from any source (libinput, a headless script, the remote API).
/// Coordinates are screen pixels of the canvas the app draws (rotation already applied); time is
/// seconds on the source's monotonic timeline (the kernel's event time on a board, virtual time
/// headless).
package struct InputEvent: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        /// One finger. `slot` identifies it while it is down.
        case touch(TouchPhase, slot: Int, position: Point)
        /// A key press or release.
        case key(Key, pressed: Bool)
        /// Text typed on a physical keyboard or a barcode scanner (the keymap already applied:
        /// dead keys and compose resolved), or by a script's `type` line: it goes to the
        /// focused text field.
        case text(String)
        /// A wheel or rotary step at the pointer position; `delta` in pixels of scroll
        /// (positive y scrolls the content up, i.e. shows what is further down).
        case wheel(delta: Point, position: Point)
        /// Two-finger scrolling on a touchpad (libinput's finger scroll source): `delta` in pixels,
        /// signed as a wheel's, while the fingers move; a zero delta when they lift (libinput's
        /// scroll stop), which lets the content carry on with the fingers' speed.
        case fingerScroll(delta: Point, position: Point)
        /// Pointer moved to `position`.
        case pointerMotion(position: Point)
        /// Pointer button (left = 0x110, BTN_LEFT) at `position`.
        case pointerButton(code: Int, pressed: Bool, position: Point)
        /// End of a group of touch events that happened together (libinput's TOUCH_FRAME): a
        /// pinch's two fingers arrive in one frame.
        case touchFrame
    }
    package enum TouchPhase: String, Hashable, Sendable { case down, move, up, cancel }

    /// Touch slots of fingers a program injects (the remote API, live viewers): far from the
    /// kernel's (0...9), so an injected finger never takes a real one's place.
    package static let injectedSlots = 1000...1_000_000

    package var kind: Kind
    package var time: Double
    package init(_ kind: Kind, time: Double) { self.kind = kind; self.time = time }

    /// A script's or the remote API's key line: a press and a release at `t`.
    package static func keyStroke(_ key: Key, at t: Double) -> [InputEvent] {
        [InputEvent(.key(key, pressed: true), time: t), InputEvent(.key(key, pressed: false), time: t)]
    }
}

/// Keys by their Linux input names without `KEY_` (Up, PageDown, Space, ...), with the kernel
/// code so board input maps directly.
package struct Key: Hashable, Sendable, CustomStringConvertible {
    package let name: String
    package let code: Int
    package init(name: String, code: Int) { self.name = name; self.code = code }
    package var description: String { name }

    package static let escape = Key(name: "Esc", code: 1)
    package static let backspace = Key(name: "Backspace", code: 14)
    package static let tab = Key(name: "Tab", code: 15)
    package static let enter = Key(name: "Enter", code: 28)
    package static let leftControl = Key(name: "LeftCtrl", code: 29)
    package static let rightControl = Key(name: "RightCtrl", code: 97)
    package static let keypadEnter = Key(name: "KPEnter", code: 96)
    package static let delete = Key(name: "Delete", code: 111)
    package static let a = Key(name: "A", code: 30)
    package static let c = Key(name: "C", code: 46)
    package static let v = Key(name: "V", code: 47)
    package static let x = Key(name: "X", code: 45)
    // A numeric keypad (ADA 707.6 tactile keypads are wired as one).
    package static let keypad0 = Key(name: "KP0", code: 82), keypad1 = Key(name: "KP1", code: 79)
    package static let keypad2 = Key(name: "KP2", code: 80), keypad3 = Key(name: "KP3", code: 81)
    package static let keypad4 = Key(name: "KP4", code: 75), keypad5 = Key(name: "KP5", code: 76)
    package static let keypad6 = Key(name: "KP6", code: 77), keypad7 = Key(name: "KP7", code: 71)
    package static let keypad8 = Key(name: "KP8", code: 72), keypad9 = Key(name: "KP9", code: 73)
    package static let keypadPlus = Key(name: "KPPlus", code: 78), keypadMinus = Key(name: "KPMinus", code: 74)
    package static let keypadAsterisk = Key(name: "KPAsterisk", code: 55), keypadSlash = Key(name: "KPSlash", code: 98)
    package static let keypadDot = Key(name: "KPDot", code: 83)
    package static let leftShift = Key(name: "LeftShift", code: 42)
    package static let rightShift = Key(name: "RightShift", code: 54)
    package static let space = Key(name: "Space", code: 57)
    package static let home = Key(name: "Home", code: 102)
    package static let up = Key(name: "Up", code: 103)
    package static let pageUp = Key(name: "PageUp", code: 104)
    package static let left = Key(name: "Left", code: 105)
    package static let right = Key(name: "Right", code: 106)
    package static let end = Key(name: "End", code: 107)
    package static let down = Key(name: "Down", code: 108)
    package static let pageDown = Key(name: "PageDown", code: 109)

    package static let all: [Key] = [
        .escape, .backspace, .tab, .enter, .leftShift, .rightShift, .space, .home, .up,
        .pageUp, .left, .right, .end, .down, .pageDown, .leftControl, .rightControl,
        .keypadEnter, .delete, .a, .c, .v, .x, .keypad0, .keypad1, .keypad2, .keypad3,
        .keypad4, .keypad5, .keypad6, .keypad7, .keypad8, .keypad9, .keypadPlus,
        .keypadMinus, .keypadAsterisk, .keypadSlash, .keypadDot,
    ]

    /// Looks a key up by its name (case-insensitive) or kernel code.
    package init?(name: String) {
        guard let k = Key.all.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
        self = k
    }
    package init(code: Int) {
        self = Key.all.first { $0.code == code } ?? Key(name: "KEY_\(code)", code: code)
    }
}
