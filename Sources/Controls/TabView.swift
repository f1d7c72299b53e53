@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Text
import Widgets
import Localization

/// One tab of a `TabView`: its title and icon in the tab bar, and the screen it shows.
public struct Tab {
    /// The words under the icon (and what the screen reader says), shown as they are.
    public var title: String {
        get { titleKey.key }
        set { titleKey = LocalizedStringKey(verbatim: newValue) }
    }
    /// The title as given: a catalog key, or the words as they are.
    package var titleKey: LocalizedStringKey
    /// The tab button's identity in the state JSON; nil: `<tab view's id>.tab-<index>`.
    public var id: String?
    /// Drawn above the title; nil: the title alone.
    public var icon: Icon?
    /// The screen shown while the tab is selected.
    public var content: View

    /// A tab titled `title`, with `icon`, showing `content`. A `String` is shown as it is; a
    /// string literal is a catalog key (see `Label`).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, id: String? = nil, icon: Icon? = nil, content: View) {
        self.init(LocalizedStringKey(verbatim: String(title)), id: id, icon: icon, content: content)
    }

    /// A tab titled with `key`, looked up in the window's string catalog.
    public init(_ key: LocalizedStringKey, id: String? = nil, icon: Icon? = nil, content: View) {
        titleKey = key
        self.id = id
        self.icon = icon
        self.content = content
    }
}

/// Screens switched by a tab bar along the bottom, as SwiftUI's `TabView`: a tap on a tab (or
/// Enter on it, or the screen reader's double tap) shows its screen. Each screen stays in the
/// tree, hidden, while another shows, and keeps its state (a list keeps its place). Right to
/// left, the first tab is at the right.
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
    private let bar = TabBar()
    /// The bar scrolls sideways when its titles cannot all fit (large text on a narrow panel).
    private let barScroll: ScrollView
    private var buttons: [TabButton] = []

    /// Tabs `tabs`; `selection` (nil: the view's own) is the index of the tab shown.
    public init(id: String? = nil, selection: Binding<Int>? = nil, tabs: [Tab]) {
        self.tabs = tabs
        binding = selection
        selectedIndex = tabs.isEmpty ? -1 : min(tabs.count - 1, max(0, selection?.wrappedValue ?? 0))
        barScroll = ScrollView(axes: .horizontal, content: bar)
        // A title cut at the edge shows there is more; an indicator would run over the titles.
        barScroll.indicators = .never
        super.init(id: id)
        for (i, tab) in tabs.enumerated() {
            let button = TabButton(tab: tab, index: i, count: tabs.count)
            button.id = tab.id ?? id.map { "\($0).tab-\(i)" }
            button.onTap = { [weak self] in self?.select(i) }
            buttons.append(button)
        }
        bar.setChildren(buttons)
        screen.setChildren(tabs.map(\.content))
        add(screen)
        add(barScroll)
        show()
        if let selection { follow { [unowned self] _ in show(index: selection.wrappedValue) } }
    }

    /// Shows tab `index` (clamped), as a tap on it does.
    /// Through a binding made with `animation(_:)`, the screens change by their transitions
    /// (a cross-fade by default).
    public func select(_ index: Int) {
        Transaction.with(binding?.transaction) { show(index: index) }
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
        for (i, tab) in tabs.enumerated() { tab.content.isHidden = i != selectedIndex }
        for (i, b) in buttons.enumerated() { b.isSelected = i == selectedIndex }
        if host != nil { barScroll.reveal(buttons[selectedIndex]) }
    }

    /// Hides the tab bar (the screens take its place), for an app that switches the screens
    /// from a control of its own, as a sidebar on a wide panel does.
    public var isBarHidden = false {
        didSet {
            barScroll.isHidden = isBarHidden
            setNeedsLayout()
        }
    }

    /// The bar's height: a fingertip and a line of small text, growing with the text size.
    private var barHeight: Double { max(56, 30 + 14 * (host?.textScale ?? 1)) }

    public override func layoutChildren() {
        let h = tabs.isEmpty || isBarHidden ? 0 : barHeight
        screen.frame = Rect(x: 0, y: 0, width: frame.width, height: max(0, frame.height - h))
        barScroll.frame = Rect(x: 0, y: frame.height - h, width: frame.width, height: h)
        bar.viewportWidth = frame.width
        // Only the screen shown is laid out; another is when it shows.
        for tab in tabs { tab.content.frame = Rect(origin: .zero, size: screen.frame.size) }
        if selectedIndex >= 0 { tabs[selectedIndex].content.layoutChildren() }
        barScroll.layoutChildren()
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .varied }

    public override func draw(in context: inout DrawContext) {
        guard !isBarHidden else { return }
        let b = barScroll.frame
        context.fill(b, color: Color.bar)
        context.fill(Rect(x: 0, y: b.minY, width: b.width, height: 1 / context.scale), color: Color.separator)
    }
}

/// The row of tabs. Equal shares when every title fits in one; else each tab gets its title's
/// width and an equal part of what is left, so no title is cut while they all fit (seven tabs
/// on a 480-point portrait panel); when they cannot all fit (large text), each is as wide as its
/// title and the row scrolls.
final class TabBar: View {
    /// The width the bar shows: it fills it at least.
    var viewportWidth = 0.0

    override func sizeThatFits(_ proposal: Size) -> Size {
        let natural = children.map { $0.sizeThatFits(Size(width: .infinity, height: proposal.height)).width }
        return Size(width: max(viewportWidth, natural.reduce(0, +)), height: proposal.height)
    }

    override func layoutChildren() {
        let n = Double(max(1, children.count))
        let share = frame.width / n
        let natural = children.map { $0.sizeThatFits(Size(width: .infinity, height: frame.height)).width }
        let spare = frame.width - natural.reduce(0, +)
        let fits = natural.allSatisfy { $0 <= share }
        var x = 0.0
        for (c, w) in zip(children, natural) {
            let width = fits || spare < 0 ? share : w + spare / n
            c.frame = Rect(x: x, y: 0, width: width, height: frame.height)
            c.layoutChildren()
            x += width
        }
        mirrorChildrenIfRightToLeft()
    }
}

/// A tab in the bar: its icon over its title, in the accent colour while selected. As wide as
/// its title when the bar is offered too little for equal shares.
final class TabButton: View {
    let tab: Tab
    let index: Int
    let count: Int
    private let title: Label
    var isSelected = false {
        didSet {
            guard isSelected != oldValue else { return }
            title.fontWeight = isSelected ? .semibold : .regular
            setNeedsLayout()
            setNeedsDisplay()
        }
    }

    init(tab: Tab, index: Int, count: Int) {
        self.tab = tab
        self.index = index
        self.count = count
        // Under an icon, small as a phone's; alone, large enough to read from a step away.
        title = Label(tab.titleKey, alignment: .center, maxLines: 1).font(tab.icon == nil ? .subheadline : .caption2)
        super.init()
        isFocusable = true
        add(title)
    }

    private var iconSide: Double { tab.icon == nil ? 0 : 24 }
    private var gap: Double { tab.icon == nil ? 0 : 3 }
    private var color: Color { isSelected ? Color.accent : Color.secondaryText }

    override func sizeThatFits(_ proposal: Size) -> Size {
        let text = title.sizeThatFits(Size(width: .infinity, height: .infinity))
        let ideal = max(iconSide, text.width.rounded(.up)) + 8
        return Size(
            width: width ?? (proposal.width.isFinite ? proposal.width : ideal),
            height: height ?? (proposal.height.isFinite ? proposal.height : iconSide + gap + text.height))
    }

    override func layoutChildren() {
        let textHeight = title.sizeThatFits(Size(width: max(0, frame.width - 4), height: .infinity)).height
        let top = (frame.height - iconSide - gap - textHeight) / 2
        title.frame = Rect(x: 2, y: top + iconSide + gap, width: max(0, frame.width - 4), height: textHeight)
        if title.color != color { title.color = color }
        title.layoutChildren()
    }

    override func draw(in context: inout DrawContext) {
        guard let icon = tab.icon else { return }
        let top = title.frame.minY - gap - iconSide
        icon.draw(
            in: Rect(x: (frame.width - iconSide) / 2, y: top, width: iconSide, height: iconSide), color: color, rightToLeft: isRightToLeft,
            context: context)
    }

    override var accessibilityDescription: AccessibilityDescription? {
        let strings = environment.strings
        let position = strings.format(.pageOf, index + 1, count)
        return AccessibilityDescription(
            role: .button, label: title.text, value: isSelected ? "\(strings[.selected]), \(position)" : position, combinesChildren: true)
    }
}
