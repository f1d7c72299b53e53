import Geometry
@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput
import AppContract

/// The runtime's settings reach the window through the `App` contract: the runtime never needs
/// to know that the app is a `Window`.
extension Window {
    package func apply(_ settings: AppSettings) {
        if let threads = settings.renderThreads { renderThreads = threads }
        if let budget = settings.memoryBudget { memoryBudget = budget }
        if let background = settings.decodesImagesInBackground { images.decodesInBackground = background }
        if let layout = settings.keyboardLayout { keyboardLayout = layout }
        if let fonts = settings.fonts, fonts != typography.fontChain { typography.fontChain = fonts }
        // The language first: `auto` then lays out as the new language is read.
        if let language = settings.language { self.language = language }
        if let direction = settings.layoutDirection {
            layoutDirection = LayoutDirection(configValue: direction) ?? LayoutDirection(language: language)
            followsLanguageDirection = LayoutDirection(configValue: direction) == nil
        }
        if let seconds = settings.idleResetSeconds { idleResetSeconds = seconds }
        if let mode = settings.onScreenKeyboard { onScreenKeyboard = OnScreenKeyboardMode(rawValue: mode) ?? .automatic }
        if let delay = settings.keyRepeatDelay { keyRepeatDelay = delay }
        if let rate = settings.keyRepeatRate { keyRepeatRate = rate }
        if let present = settings.hasHardwareKeyboard { hasHardwareKeyboard = present }
        if let mapping = settings.keypadMapping { keypadMapping = mapping }
        if let speech = settings.speech { self.speech = speech }
        if let enabled = settings.isScreenReaderEnabled { isScreenReaderEnabled = enabled }
        if let scale = settings.textScale { textScale = scale }
        if let contrast = settings.isHighContrast { isHighContrast = contrast }
        if let scheme = settings.colorScheme {
            if let fixed = ColorScheme(rawValue: scheme) {
                colorSchedule = nil
                colorScheme = fixed
            } else {
                colorSchedule = ColorSchedule(scheme)
            }
        }
    }

    package var memoryReport: String? { memoryUse.report }
    package var pictureStoreBytes: Int { images.residentBytes + rasterCache.halvingBytes }

    package func pixelFrame(ofViewWithID id: String) -> IntRect? {
        layoutIfNeeded()
        for layer in holder.children.reversed() {
            guard let v = layer.view(withID: id), !v.selfAndAncestors.contains(where: \.isHidden) else { continue }
            // The frame as the state reports it, in whole pixels outwards.
            let r = visibleRect(of: v), s = scaleFactor
            let px = IntRect(enclosing: Rect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s))
            let clipped = px.intersection(IntRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight))
            return r.isEmpty || clipped.isEmpty ? nil : clipped
        }
        return nil
    }
}
