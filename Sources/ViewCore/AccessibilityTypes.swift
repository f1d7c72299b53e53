import AppContract
import Geometry
import Raster
import Localization
import Scrolling

/// What an element is to a person who cannot see it.
public enum AccessibilityRole: String, Hashable, Sendable, Codable, CaseIterable {
    /// Something that acts when activated: a view or label with `onTap` or `onLongPress`.
    case button
    /// Plain text: a label.
    case text
    /// A title: a label of 24 points or more.
    case heading
    /// A picture; only one the app gave an accessibility label is an element.
    case image
    /// A scroll view; its value says which part of the content shows ("Rows 10 to 18 of 500").
    case scrollArea = "scroll area"
    /// A page control; its value says the page ("Page 3 of 7").
    case pageControl = "page control"
    /// A tappable row in a scroll view's content: a row of a list.
    case listRow = "list row"
    /// A view that a swipe up or down adjusts under the screen reader (`accessibilityAdjustable(_:)`).
    case adjustable
    /// A text field or text area: its placeholder names it and its text is its value.
    case textField = "text field"
    /// A switch (`Toggle`): its value is "on" or "off".
    case toggle = "switch"
    /// A progress bar or spinner (`ProgressView`): its value is how far it got.
    case progress = "progress indicator"
}

extension AccessibilityRole {
    /// The built-in word that names the role aloud.
    package var spokenName: BuiltInStrings.Word {
        switch self {
        case .button: .roleButton
        case .text: .roleText
        case .heading: .roleHeading
        case .image: .roleImage
        case .scrollArea: .roleScrollArea
        case .pageControl: .rolePageControl
        case .listRow: .roleListRow
        case .adjustable: .roleAdjustable
        case .textField: .roleTextField
        case .toggle: .roleSwitch
        case .progress: .roleProgress
        }
    }
}

/// One element of the accessibility tree: what a screen reader says, and where it is.
package struct AccessibilityElement {
    package var role: AccessibilityRole
    package var label: String
    package var value: String?
    package var hint: String?
    /// The element's visible rectangle in window points.
    package var frame: Rect
    /// The view the element stands for (what a double tap activates).
    package let view: View
    /// The language of the label, for the voice: the view's `accessibilityLanguage(_:)`, else
    /// by its script ("ja" for Japanese, "ar" for Arabic, "he" for Hebrew), else nil (the
    /// window's language).
    package var language: String? { view.accessibility.language ?? AccessibilityElement.language(of: label) }

    package init(role: AccessibilityRole, label: String, value: String?, hint: String?, frame: Rect, view: View) {
        self.role = role; self.label = label; self.value = value; self.hint = hint; self.frame = frame; self.view = view
    }

    /// What is spoken for it: "Search, button", "Rows 10 to 18 of 500, scroll area".
    package var spokenText: String { spokenText(in: BuiltInStrings(language: "en")) }

    /// What is spoken for it, its role named in the words of `strings`.
    package func spokenText(in strings: BuiltInStrings) -> String {
        [label, value, role == .text ? nil : strings[role.spokenName], hint].compactMap { $0 }.filter { !$0.isEmpty }.joined(
            separator: ", ")
    }

    /// The language of the first letter of `text` in a script that has a voice of its own:
    /// kana and kanji are Japanese, the Arabic blocks Arabic, the Hebrew block Hebrew.
    static func language(of text: String) -> String? {
        for s in text.unicodeScalars where s.value >= 0x590 {
            switch s.value {
            case 0x3040...0x30FF, 0x4E00...0x9FFF: return "ja"
            case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return "ar"
            case 0x0590...0x05FF, 0xFB1D...0xFB4F: return "he"
            default: continue
            }
        }
        return nil
    }
}

/// What an app set about a view's accessibility (the four modifiers and the role).
package struct AccessibilitySettings {
    package var label: String?
    package var value: String?
    package var hint: String?
    package var hidden = false
    package var role: AccessibilityRole?
    /// The language its words are spoken in (nil: by their script, else the window's).
    package var language: String?
    /// Called with +1 or -1 when the screen reader's swipe up or down adjusts the view.
    package var adjust: ((Int) -> Void)?

    package init() {}
}

extension View {
    /// What a screen reader says for this view instead of its text (an icon button's "Close").
    @discardableResult
    public func accessibilityLabel(_ label: String) -> Self { accessibility.label = label; return self }
    /// The view's current value ("3 of 5 stars"), spoken after its label.
    @discardableResult
    public func accessibilityValue(_ value: String) -> Self { accessibility.value = value; return self }
    /// What happens when it is activated ("Opens the timetable"), spoken last.
    @discardableResult
    public func accessibilityHint(_ hint: String) -> Self { accessibility.hint = hint; return self }
    /// The language the screen reader speaks this view's words in, as a language tag ("ar",
    /// "de"): for text whose script does not say it (a German word in an English app). Without
    /// it, Japanese, Arabic and Hebrew are known by their script and the rest is spoken in the
    /// window's language.
    @discardableResult
    public func accessibilityLanguage(_ language: String) -> Self { accessibility.language = language; return self }
    /// Hides the view and everything in it from the screen reader (a decorative picture).
    @discardableResult
    public func accessibilityHidden(_ hidden: Bool = true) -> Self { accessibility.hidden = hidden; return self }
    /// Makes the view adjustable (a stepper, a slider): under the screen reader a swipe up calls
    /// `adjust(+1)`, down `adjust(-1)`, and the view's new value is said.
    @discardableResult
    public func accessibilityAdjustable(_ adjust: @escaping (Int) -> Void) -> Self { accessibility.adjust = adjust; return self }
    /// What the view is (a label that is a heading, say).
    @discardableResult
    public func accessibilityRole(_ role: AccessibilityRole) -> Self { accessibility.role = role; return self }

    /// The texts of the labels in this subtree, in order (a tappable row says them as one).
    package var containedTexts: [String] {
        var out: [String] = []
        func walk(_ v: View) {
            guard !v.isHidden, !v.accessibility.hidden else { return }
            if let l = v.accessibility.label { out.append(l); return }
            if let text = v.accessibilityText, !text.isEmpty { out.append(text) }
            v.children.forEach(walk)
        }
        walk(self)
        return out
    }
}

extension Double {
    package var clampedToPercent: Double { Swift.min(100, Swift.max(0, self)) }
}

/// A view's default description (before the app's settings).
@_spi(Hooks) public struct AccessibilityDescription {
    public var role: AccessibilityRole
    public var label: String
    public var value: String?
    /// Its children are part of it (a tappable row), not elements of their own.
    public var combinesChildren = false

    public init(role: AccessibilityRole, label: String, value: String? = nil, combinesChildren: Bool = false) {
        self.role = role; self.label = label; self.value = value; self.combinesChildren = combinesChildren
    }
}

/// The high-contrast setting's colours: text black on light and white on dark, light
/// backgrounds white and dark ones black (saturated colours stay: they carry meaning), borders
/// black.
// colour: black and white here are not roles: high contrast is the most contrast a colour can
// have, so it maps what is drawn (the theme's roles and the app's own colours alike) to the two
// ends, as `Theme.highContrast()` does to its text; a role would let a theme weaken it.
package enum HighContrast {
    package static func luminance(_ c: Color) -> Double {
        let r = 0.2126 * Double(c.red), g = 0.7152 * Double(c.green), b = 0.0722 * Double(c.blue)
        return (r + g + b) / 255
    }
    /// Text drawn in `c`: black or white by which its scheme's background it was made for.
    /// In a light scheme only a colour near white (text on an accent fill) becomes white; in
    /// a dark one only a colour near black does, so that a dark scheme's accent text (0.59 on
    /// this scale) stays light on the black background.
    package static func text(_ c: Color, in scheme: ColorScheme) -> Color {
        Color(rgb: luminance(c) < (scheme == .dark ? 0.4 : 0.6) ? 0x000000 : 0xFFFFFF, alpha: c.alpha)
    }
    package static func fill(_ c: Color) -> Color {
        let l = luminance(c)
        let high = max(c.red, c.green, c.blue), low = min(c.red, c.green, c.blue)
        let spread = Double(high) - Double(low)
        guard spread < 40 else { return c }
        return l > 0.6 ? Color(rgb: 0xFFFFFF, alpha: c.alpha) : (l < 0.3 ? Color(rgb: 0x000000, alpha: c.alpha) : c)
    }
    package static func border(_ c: Color) -> Color { Color(rgb: 0x000000, alpha: max(c.alpha, 200)) }
}
