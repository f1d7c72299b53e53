@_spi(Hooks) import ViewCore
import Geometry
import Raster
import Text
import Widgets
import Localization

/// What a button does, when it is more than an action: its colour says so.
public enum ButtonRole: Hashable, Sendable {
    /// Deletes or undoes something (drawn red).
    case destructive
    /// Dismisses without acting (in a dialog, the button Esc presses).
    case cancel
}

/// How a button is drawn.
public enum ButtonStyle: Hashable, Sendable {
    /// Filled with the accent colour, white title: the one main action of a screen.
    case prominent
    /// A light tint of the accent behind an accent title: most buttons.
    case bordered
    /// The title alone, in the accent colour: actions in a bar or a row.
    case plain
}

/// A button: a title, an optional icon before it, and an action run on a tap, on Enter while
/// it has focus, or on the screen reader's double tap. It shows itself pressed under a finger,
/// faded while disabled, and is at least 44 points high. Its title wraps and grows with the
/// window's text size; right to left, the icon goes to the right of the title.
///
/// ```swift
/// Button("Pay", id: "pay", icon: .cart, style: .prominent) { checkout() }
/// ```
public final class Button: Control {
    /// The words on the button (and what the screen reader says).
    public var title: String {
        get { titleLabel.text }
        set { titleLabel.text = newValue }
    }
    /// Titles the button with `key`, looked up in the window's string catalog now and after each
    /// change of language (`button.setTitle("Cart · \(count)")`).
    public func setTitle(_ key: LocalizedStringKey) { titleLabel.setText(key) }
    /// Drawn before the title in the title's colour; nil: none.
    public var icon: Icon? { didSet { setNeedsLayout(); setNeedsDisplay() } }
    /// What the button does, if more than an action (destructive buttons are red).
    public var role: ButtonRole? { didSet { updateTitleColor() } }
    /// How the button is drawn.
    public var style: ButtonStyle { didSet { updateTitleColor() } }
    /// Run on every tap, Enter, or activation by the screen reader, while enabled.
    public var action: () -> Void

    private let titleLabel: Label
    private static let gap = 8.0

    /// A button titled `title`, with `icon` before it, drawn in `style`, that runs `action`. A
    /// `String` is shown as it is; a string literal is a catalog key (see `Label`).
    @_disfavoredOverload
    public convenience init<S: StringProtocol>(
        _ title: S, id: String? = nil, icon: Icon? = nil, role: ButtonRole? = nil,
        style: ButtonStyle = .bordered, action: @escaping () -> Void
    ) {
        self.init(titleLabel: Label(title, alignment: .center), id: id, icon: icon, role: role, style: style, action: action)
    }

    /// A button titled with `key` looked up in the window's string catalog, in its language.
    public convenience init(
        _ key: LocalizedStringKey, id: String? = nil, icon: Icon? = nil, role: ButtonRole? = nil,
        style: ButtonStyle = .bordered, action: @escaping () -> Void
    ) {
        self.init(titleLabel: Label(key, alignment: .center), id: id, icon: icon, role: role, style: style, action: action)
    }

    private init(titleLabel: Label, id: String?, icon: Icon?, role: ButtonRole?, style: ButtonStyle, action: @escaping () -> Void) {
        self.titleLabel = titleLabel.fontWeight(.semibold)
        self.icon = icon
        self.role = role
        self.style = style
        self.action = action
        super.init(id: id)
        padding = EdgeInsets(horizontal: style == .plain ? 8 : 20, vertical: 10)
        themedCorner = \.button
        add(titleLabel)
        enabledChanged()
        updateTitleColor()
    }

    override func enabledChanged() {
        onTap = isEnabled ? { [unowned self] in action() } : nil
        updateTitleColor()
    }

    package override var controlKind: String { "button" }

    /// The role's colour: red for destructive buttons, else the theme's accent.
    private var baseColor: Color { role == .destructive ? .destructive : .accent }

    /// A bordered button pressed is filled like a prominent one: a deeper tint under its title
    /// would leave the title under 4.5:1 on a light background.
    private var isFilled: Bool { style == .prominent || (style == .bordered && isPressed) }

    private func updateTitleColor() {
        titleLabel.color = !isEnabled ? .secondaryText : isFilled ? .onAccent : baseColor
        setNeedsDisplay()
    }

    @_spi(Hooks) override public func pressedChanged() { updateTitleColor() }

    /// The icon's side: the title's line height, so both grow with the text size.
    private var iconSide: Double { icon == nil ? 0 : scaled(22) }

    private func contentSize(width: Double) -> Size {
        let side = iconSide, gap = icon == nil ? 0 : Self.gap
        var text = titleLabel.sizeThatFits(Size(width: .infinity, height: .infinity))
        if text.width + side + gap > width {
            text = titleLabel.sizeThatFits(Size(width: max(0, width - side - gap), height: .infinity))
        }
        if title.isEmpty { text = .zero }
        return Size(width: text.width + side + (title.isEmpty ? 0 : gap), height: max(text.height, side))
    }

    /// As wide as its title and icon (at most the width offered; all of it when its `maxWidth` is
    /// infinite), at least 44 points both ways.
    public override func sizeThatFits(_ proposal: Size) -> Size {
        let available = (width ?? proposal.width) - padding.horizontal
        let content = contentSize(width: available)
        let fills = maxWidth == .infinity && proposal.width.isFinite
        return Size(
            width: width ?? (fills ? proposal.width : max(Self.minimumTarget, min(proposal.width, content.width + padding.horizontal))),
            height: height ?? max(Self.minimumTarget, content.height + padding.vertical))
    }

    public override func layoutChildren() {
        let inner = contentBounds
        let content = contentSize(width: inner.width)
        let side = iconSide, gap = icon == nil || title.isEmpty ? 0 : Self.gap
        let textWidth = min(inner.width - side - gap, content.width - side - gap)
        let start = inner.minX + max(0, (inner.width - content.width) / 2)
        let textHeight = titleLabel.sizeThatFits(Size(width: max(0, textWidth), height: .infinity)).height
        titleLabel.frame = Rect(
            x: start + side + gap, y: inner.minY + (inner.height - textHeight) / 2, width: max(0, textWidth), height: textHeight)
        titleLabel.layoutChildren()
        mirrorChildrenIfRightToLeft()
    }

    public override func draw(in context: inout DrawContext) {
        let bounds = Rect(origin: .zero, size: frame.size)
        let base = context.theme.resolve(baseColor)
        let radius = cornerRadius(in: context.theme)
        let fill = isEnabled ? base : Color.separator
        // The tint at rest keeps the title at 4.5:1 on the grey background too (0.15 gave 4.4);
        // a plain button pressed shows that tint rather than a shade that would darken under
        // its title.
        if isFilled {
            context.fill(bounds, cornerRadius: radius, color: fill)
        } else if style == .bordered || isPressed {
            context.fill(bounds, cornerRadius: radius, color: fill.withOpacity(0.1))
        }
        if context.isHighContrast, style != .plain {
            context.stroke(bounds, cornerRadius: radius, lineWidth: 2, color: context.borderColor(base))
        }
        guard let icon else { return }
        let side = iconSide
        let x = title.isEmpty ? (frame.width - side) / 2 : titleLabel.frame.minX - Self.gap - side
        let iconX = isRightToLeft && !title.isEmpty ? titleLabel.frame.maxX + Self.gap : x
        icon.draw(
            in: Rect(x: iconX, y: (frame.height - side) / 2, width: side, height: side), color: titleLabel.color,
            rightToLeft: isRightToLeft, context: context)
    }

    /// Only a prominent button is shaded under a finger; the others show their own pressed look.
    @_spi(Hooks) override public func drawPressed(in context: inout DrawContext) {
        if style == .prominent { super.drawPressed(in: &context) }
    }

    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        AccessibilityDescription(role: .button, label: title, value: spokenValue(nil), combinesChildren: true)
    }
}
