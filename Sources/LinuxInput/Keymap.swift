import CXKBCommon
import AppContract

/// Why a keymap could not be made.
package enum KeymapError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownLayout(String)
    case noContext

    package var description: String {
        switch self {
        case .unknownLayout(let name):
            return "no keymap '\(name)' in xkeyboard-config (is the xkb-data package there? names are like us, de, fr, jp)"
        case .noContext: return "libxkbcommon could not start"
        }
    }
}

/// A physical keyboard's (or barcode scanner's) keymap through libxkbcommon: kernel key codes in,
/// typed text out, with shift, AltGr and caps lock tracked, and dead keys and compose sequences
/// resolved by the locale's compose table. A `final class`: it owns the xkb references.
package final class Keymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    private let compose: OpaquePointer?
    /// The xkb layout name (`us`, `de`, ...).
    package let layout: String

    /// The xkb layout for a keyboard layout of Glide's on-screen keyboard (`en` → `us`,
    /// `ja` → `jp`, `uk` → `ua`, `el` → `gr`, `fa` → `ir`); other names are taken as xkb names
    /// (`de`, `fr`, `es`, `it`, `pt`, `nl`, `pl`, `tr`, `ru` are the same in both).
    package static func xkbName(forKeyboardLayout name: String) -> String {
        [
            "en": "us", "ja": "jp", "ar": "ara", "he": "il", "uk": "ua", "el": "gr", "fa": "ir", "number": "us", "pin": "us",
        ][name] ?? name
    }

    /// - Parameters: `layout`, an xkb layout name; `locale`, whose compose table resolves dead
    ///   keys (without one, dead keys type nothing).
    package init(layout: String, variant: String = "", locale: String = "en_US.UTF-8") throws(KeymapError) {
        guard !layout.isEmpty, layout.utf8.count <= 64,
            layout.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "()_-+0123456789".unicodeScalars.contains($0)) }
            )
        else {
            throw .unknownLayout(String(layout.prefix(64)))
        }
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw .noContext }
        xkb_context_set_log_level(ctx, XKB_LOG_LEVEL_CRITICAL)
        let made: OpaquePointer? = layout.withCString { l in
            variant.withCString { v in
                var names = xkb_rule_names(rules: nil, model: nil, layout: l, variant: variant.isEmpty ? nil : v, options: nil)
                return xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        }
        // xkbcommon falls back to defaults for a missing layout only when the rules resolve; a
        // name that names no symbols file makes no keymap.
        guard let km = made, let st = xkb_state_new(km) else {
            if let made { xkb_keymap_unref(made) }
            xkb_context_unref(ctx)
            throw .unknownLayout(layout)
        }
        context = ctx; keymap = km; state = st
        self.layout = layout
        let table = xkb_compose_table_new_from_locale(ctx, locale, XKB_COMPOSE_COMPILE_NO_FLAGS)
        compose = table.flatMap { t in
            defer { xkb_compose_table_unref(t) }
            return xkb_compose_state_new(t, XKB_COMPOSE_STATE_NO_FLAGS)
        }
    }

    deinit {
        if let compose { xkb_compose_state_unref(compose) }
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// True when dead keys and compose sequences work (the locale's compose table was found).
    package var hasCompose: Bool { compose != nil }

    /// True while Control is held: a key then types nothing (it is a shortcut).
    private var controlActive: Bool {
        xkb_state_mod_name_is_active(state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    /// Feeds a key press or release (`code`: the kernel's KEY_ code) and returns the text it
    /// types: nil for releases, modifiers, dead keys waiting for their letter, control
    /// characters and shortcuts.
    package func text(forKey code: Int, pressed: Bool) -> String? {
        guard code >= 0, code < 0xFFFF else { return nil }
        let keycode = xkb_keycode_t(code + 8)  // evdev codes are offset by 8 in xkb
        defer { xkb_state_update_key(state, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP) }
        guard pressed else { return nil }
        let sym = xkb_state_key_get_one_sym(state, keycode)
        if let compose {
            _ = xkb_compose_state_feed(compose, sym)
            switch xkb_compose_state_get_status(compose) {
            case XKB_COMPOSE_COMPOSING:
                return nil
            case XKB_COMPOSE_COMPOSED:
                let s = utf8 { xkb_compose_state_get_utf8(compose, $0, $1) }
                xkb_compose_state_reset(compose)
                return printable(s)
            case XKB_COMPOSE_CANCELLED:
                xkb_compose_state_reset(compose)
                return nil
            default:
                break
            }
        }
        guard !controlActive else { return nil }
        return printable(utf8 { xkb_state_key_get_utf8(state, keycode, $0, $1) })
    }

    private func utf8(_ get: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBufferPointer { get($0.baseAddress, $0.count) }
        guard n > 0 else { return "" }
        return String(decoding: buffer.prefix(min(Int(n), 63)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Text without control characters (Enter, Tab, Backspace and Esc arrive as keys).
    private func printable(_ s: String) -> String? {
        let kept = String(String.UnicodeScalarView(s.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return kept.isEmpty ? nil : kept
    }
}
