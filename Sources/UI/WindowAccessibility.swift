import Geometry
import AppContract
@_spi(Hooks) import ViewCore
import Accessibility

extension View {
    /// The window whose tree holds this view; nil while it is in none.
    public var window: Window? {
        // By type: the public API gives apps their window, which ViewCore's host role (package,
        // below UI) cannot name; a window is the only host of a tree shown on a screen.
        host as? Window
    }
}

extension Window: ScreenReaderHost {
    /// The accessibility tree of what is on screen, in reading order, without the on-screen
    /// keyboard (the screen reader does not read its keys).
    package func accessibilityElements() -> [AccessibilityElement] {
        layoutIfNeeded()
        return AccessibilityTree.elements(in: readableLayers) { visibleRect(of: $0) }
    }

    /// The element under `p` (window points): the innermost, so a row wins over its list.
    package func accessibilityElement(at p: Point) -> AccessibilityElement? {
        accessibilityElements().last { $0.frame.contains(p) }
    }
}
