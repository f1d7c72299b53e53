import Geometry
@_spi(Hooks) import ViewCore

/// The accessibility tree of what is on screen, in reading order (tree order): built on
/// demand, from the views on screen only, so a million-row lazy list costs its visible rows
/// and a window whose screen reader is off pays nothing.
package enum AccessibilityTree {
    /// The elements of `layers` (the app's tree and what floats over it), each at its visible
    /// rectangle as `visibleRect` gives it in window points; views off screen are left out.
    package static func elements(in layers: [View], visibleRect: (View) -> Rect) -> [AccessibilityElement] {
        var out: [AccessibilityElement] = []
        func walk(_ v: View) {
            guard !v.isHidden, !v.accessibility.hidden else { return }
            let visible = visibleRect(v)
            if let d = v.accessibilityDescription, !visible.isEmpty {
                let s = v.accessibility
                out.append(
                    AccessibilityElement(
                        role: s.role ?? d.role, label: s.label ?? d.label, value: s.value ?? d.value,
                        hint: s.hint, frame: visible, view: v))
                // A row that is one element says its texts itself.
                if d.combinesChildren { return }
            }
            for c in v.childrenInReadingOrder { walk(c) }
        }
        for layer in layers { walk(layer) }
        return out
    }
}
