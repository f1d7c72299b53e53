import BoardConfig
import LinuxInput
import Logging
import Runtime

extension BoardRuntime {
    /// The config's text entry: the on-screen keyboard's layout and when it
    /// shows, and physical keyboards' keymap and repeat. A keymap that cannot be made is
    /// logged and the board runs on: keys still work, typed text does not.
    static func configureTextEntry(_ app: App, _ settings: inout AppSettings, input: InputContext, cfg: BoardConfig, log: Logger) {
        settings.keyboardLayout = cfg.keyboardLayout
        settings.layoutDirection = cfg.layoutDirection
        settings.language = cfg.language
        settings.fonts = cfg.fonts
        settings.idleResetSeconds = cfg.idleResetSeconds
        settings.onScreenKeyboard = cfg.onscreenKeyboard == "auto" ? "automatic" : cfg.onscreenKeyboard
        settings.keyRepeatDelay = Double(cfg.keyboardRepeatDelayMilliseconds) / 1000
        settings.keyRepeatRate = Double(cfg.keyboardRepeatRate)
        let name = cfg.keymap ?? Keymap.xkbName(forKeyboardLayout: cfg.keyboardLayout)
        do {
            let keymap = try Keymap(layout: name)
            input.keymap = keymap
            log.info("keymap \(name) for physical keyboards\(keymap.hasCompose ? "" : " (no compose table: dead keys type nothing)")")
        } catch {
            log.error("\(error); physical keyboards send keys but type no text")
        }
        settings.hasHardwareKeyboard = !input.keyboards.isEmpty
        input.onKeyboardsChanged = { [weak app] present in
            var change = AppSettings()
            change.hasHardwareKeyboard = present
            app?.apply(change)
            log.info(present ? "a physical keyboard is attached" : "no physical keyboard is attached")
        }
    }
}
