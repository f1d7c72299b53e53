import BoardConfig
import LinuxInput
import Logging
import UI

extension BoardRuntime {
    /// The config's text entry (TXT-2, TXT-4): the on-screen keyboard's layout and when it
    /// shows, and physical keyboards' keymap and repeat. A keymap that cannot be made is
    /// logged and the board runs on: keys still work, typed text does not.
    static func configureTextEntry(_ window: Window, input: InputContext, cfg: BoardConfig, log: Logger) {
        window.keyboardLayout = cfg.keyboardLayout
        window.onScreenKeyboard = OnScreenKeyboardMode(rawValue: cfg.onscreenKeyboard == "auto" ? "automatic" : cfg.onscreenKeyboard) ?? .automatic
        window.keyRepeatDelay = Double(cfg.keyboardRepeatDelayMilliseconds) / 1000
        window.keyRepeatRate = Double(cfg.keyboardRepeatRate)
        let name = cfg.keymap ?? Keymap.xkbName(forKeyboardLayout: cfg.keyboardLayout)
        do {
            let keymap = try Keymap(layout: name)
            input.keymap = keymap
            log.info("keymap \(name) for physical keyboards\(keymap.hasCompose ? "" : " (no compose table: dead keys type nothing)")")
        } catch {
            log.error("\(error); physical keyboards send keys but type no text")
        }
        window.hasHardwareKeyboard = !input.keyboards.isEmpty
        input.onKeyboardsChanged = { [weak window] present in
            window?.hasHardwareKeyboard = present
            log.info(present ? "a physical keyboard is attached" : "no physical keyboard is attached")
        }
    }
}
