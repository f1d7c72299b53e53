import Geometry
import Raster
import TextEditing
@_spi(Hooks) import ViewCore
import Widgets
import TextInput

/// The window is the screen the keyboard host slides the keys over, and the host its fields ask
/// for the pasteboard, the edit menu and the next field.
extension Window: KeyboardScreen {
    package func screenPanned() {
        needsLayout = true
        fullDamage = true
    }
}

extension Window {
    /// Text cut or copied in this app (the kiosk has no other to share it with).
    package var pasteboard: String? {
        get { keyboardHost.pasteboard }
        set { keyboardHost.pasteboard = newValue }
    }

    /// The on-screen keyboard's frame in window points while any of it shows.
    package var keyboardFrame: Rect? {
        guard let k = keyboardHost.keyboard, !k.isHidden else { return nil }
        return k.frameInWindow.intersection(Rect(origin: .zero, size: sizeInPoints)).offsetBy(dx: 0, dy: k.previewMargin)
    }

    package func keyboardConfigurationChanged(for view: TextInputView) { keyboardHost.configurationChanged(for: view) }

    package func editMenuChanged(for view: TextInputView) {
        if keyboardHost.menu.field === view { keyboardHost.menu.hide() }
    }

    package func showEditMenu(for view: TextInputView) { keyboardHost.menu.show(for: view) }

    /// `.next` on a field's return key: focus goes to the next text input in tree order, or
    /// leaves when it was the last.
    package func focusNextTextInput(after view: TextInputView) {
        var inputs: [TextInputClient] = []
        func walk(_ v: View) {
            guard !v.isHidden else { return }
            if let t = v as? TextInputClient, !t.isReadOnly { inputs.append(t) }
            v.children.forEach(walk)
        }
        walk(root)
        if let i = inputs.firstIndex(where: { $0 === view }), i + 1 < inputs.count { focus(inputs[i + 1]) } else { focus(nil) }
    }
}

extension KeyboardHost {
    /// The keyboard for the state JSON: its keys in window pixels.
    package func state(scale s: Double) -> WindowState.KeyboardState {
        func px(_ r: Rect) -> [Double] { [rounded(r.minX * s), rounded(r.minY * s), rounded(r.width * s), rounded(r.height * s)] }
        let name = keyboard?.layout.name ?? window?.keyboardLayout ?? "en"
        guard let keyboard, !keyboard.isHidden else {
            return .init(visible: false, frame: [], layout: name, page: "letters", shift: "off", keys: [])
        }
        let origin = keyboard.frameInWindow.origin
        let keys = keyboard.visibleKeys.map {
            WindowState.KeyboardState.KeyState(label: $0.label, frame: px($0.frame.offsetBy(dx: origin.x, dy: origin.y)))
        }
        let page = keyboard.layout.pageName(keyboard.page)
        let shift = keyboard.katakana ? "katakana" : ["off", "once", "locked"][[.off, .once, .locked].firstIndex(of: keyboard.shift)!]
        return .init(
            visible: true, frame: px(keyboard.keysRect.offsetBy(dx: origin.x, dy: origin.y)), layout: name,
            page: page, shift: shift, keys: keys)
    }
}
