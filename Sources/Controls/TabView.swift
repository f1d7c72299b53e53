@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Text
import Widgets

/// One tab of a `TabView`: its title and icon in the tab bar, and the screen it shows.
public struct Tab {
    /// The words under the icon (and what the screen reader says).
    public var title: String
    /// The tab button's identity in the state JSON; nil: `<tab view's id>.tab-<index>`.
    public var id: String?
    /// Drawn above the title; nil: the title alone.
    public var icon: Icon?
    /// The screen shown while the tab is selected.
    public var content: View

    /// A tab titled `title`, with `icon`, showing `content`.
    public init(_ title: String, id: String? = nil, icon: Icon? = nil, content: View) {
        self.title = title
        self.id = id
        self.icon = icon
        self.content = content
    }
}

/// Screens switched by a tab bar along the bottom, as SwiftUI's `TabView`: a tap on a tab (or
/// Enter on it, or the screen reader's double tap) shows its screen. Each screen keeps its state
/// (a list keeps its place) while another shows. Right to left, the first tab is at the right.
///
/// ```swift
/// TabView(id: "tabs", tabs: [
///     Tab("Menu", icon: .cart, content: menu),
///     Tab("Orders", icon: .checkmark, content: orders),
/// ])
/// ```
public final class TabView: View {
    /// The tabs, in order from the leading end.
    public let tabs: [Tab]
    /// The index of the tab shown (-1 without tabs).
    public private(set) var selectedIndex: Int

    private let binding: Binding<Int>?
    private let screen = View()
    private let bar: Stack
    private var buttons: [TabButton] = []

    /// Tabs `tabs`; `selection` (nil: the view's own) is the index of the tab shown.
    public init(id: String? = nil, selection: Binding<Int>? = nil, tabs: [Tab]) {
        self.tabs = tabs
        binding = selection
        selectedIndex = tabs.isEmpty ? -1 : min(tabs.count - 1, max(0, selection?.wrappedValue ?? 0))
        bar = Stack(.horizontal, alignment: .fill)
        super.init(id: id)
        for (i, tab) in tabs.enumerated() {
            let button = TabButton(tab: tab, index: i, count: tabs.count)
            button.id = tab.id ?? id.map { "\($0).tab-\(i)" }
            button.onTap = { [unowned self] in select(i) }
            buttons.append(button)
        }
        bar.setChildren(buttons)
        add(screen)
        add(bar)
        show()
        if let selection { follow { [unowned self] _ in show(index: selection.wrappedValue) } }
    }

    /// Shows tab `index` (clamped), as a tap on it does.
    public func select(_ index: Int) {
        show(index: index)
        if let binding, binding.wrappedValue != selectedIndex { binding.wrappedValue = selectedIndex }
    }

    private func show(index: Int) {
        guard !tabs.isEmpty else { return }
        let i = min(tabs.count - 1, max(0, index))
        guard i != selectedIndex else { return }
        selectedIndex = i
        show()
    }

    private func show() {
        guard selectedIndex >= 0 else { return }
        screen.setChildren([tabs[selectedIndex].content])
        for (i, b) in buttons.enumerated() { b.isSelected = i == selectedIndex }
    }

    /// The bar's height: a fingertip and a line of small text, growing with the text size.
    private var barHeight: Double { max(56, 30 + 14 * (host?.textScale ?? 1)) }

    public override func layoutChildren() {
        let h = tabs.isEmpty ? 0 : barHeight
        screen.frame = Rect(x: 0, y: 0, width: frame.width, height: max(0, frame.height - h))
        bar.frame = Rect(x: 0, y: frame.height - h, width: frame.width, height: h)
        screen.layoutChildren()
        bar.layoutChildren()
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .varied }

    public override func draw(in context: inout DrawContext) {
        let b = bar.frame
        context.fill(b, color: context.palette.bar)
        context.fill(Rect(x: 0, y: b.minY, width: b.width, height: 1 / context.scale), color: context.palette.separator)
    }
}

/// A tab in the bar: its icon over its title, in the accent colour while selected.
final class TabButton: View {
    let tab: Tab
    let index: Int
    let count: Int
    var isSelected = false { didSet { if isSelected != oldValue { setNeedsDisplay() } } }

    init(tab: Tab, index: Int, count: Int) {
        self.tab = tab
        self.index = index
        self.count = count
        super.init()
        isFocusable = true
    }

    override func draw(in context: inout DrawContext) {
        let color = isSelected ? context.palette.accent : context.palette.secondaryText
        let size = 11 * (host?.textScale ?? 1)
        let iconSide = tab.icon == nil ? 0.0 : 24
        let textHeight = size * 1.3
        let top = (frame.height - iconSide - (iconSide > 0 ? 3 : 0) - textHeight) / 2
        if let icon = tab.icon {
            icon.draw(in: Rect(x: (frame.width - iconSide) / 2, y: top, width: iconSide, height: iconSide), color: color, context: context)
        }
        let y = top + iconSide + (iconSide > 0 ? 3 : 0)
        context.draw(
            tab.title, in: Rect(x: 2, y: y, width: frame.width - 4, height: textHeight + 2), size: size, color: color,
            alignment: .center, weight: isSelected ? .semibold : .regular)
    }

    override var accessibilityDescription: AccessibilityDescription? {
        let strings = environment.strings
        let position = strings.format(.pageOf, index + 1, count)
        return AccessibilityDescription(
            role: .button, label: tab.title, value: isSelected ? "\(strings[.selected]), \(position)" : position, combinesChildren: true)
    }
}
