@_spi(Hooks) import ViewCore
import AppContract
import Geometry
import Raster
import Text
import Widgets
import Localization

/// A segmented picker: one choice of a few, side by side, the chosen one raised on a white
/// thumb that slides to the next choice. A tap chooses; the arrow keys and the screen reader's
/// swipes move the choice. Its selection is an index into `options`.
///
/// ```swift
/// Picker("Size", id: "size", selection: Binding(line, \.size), options: ["Small", "Medium", "Large"])
/// ```
public final class Picker: Control, KeyResponder, AnimatedView {
    /// What the screen reader says the picker chooses (a catalog key, for a picker made with
    /// keys: said in the window's language).
    public var title: String {
        get { titleKey.key }
        set { titleKey = LocalizedStringKey(verbatim: newValue) }
    }
    private var titleKey: LocalizedStringKey
    /// The choices, in order from the leading end, as given (catalog keys, for a picker made
    /// with keys: each shown in the window's language).
    public let options: [String]
    /// The index of the choice shown: its binding's, as last read or set (-1 when there are no options).
    public private(set) var selection: Int

    private let binding: Binding<Int>
    private var segments: [Box] = []
    private var labels: [Label] = []
    /// The thumb sliding from one segment to another: from, and when it started.
    private var slide: Slide?

    /// A picker of `options` titled `title` that shows and sets `selection`, an index. An
    /// empty list of options is reported in the log and shows nothing to choose.
    /// A `String` title and options are shown as they are; string literals are catalog keys.
    @_disfavoredOverload
    public convenience init<S: StringProtocol>(_ title: S, id: String? = nil, selection: Binding<Int>, options: [S]) {
        let verbatim = { (s: S) in LocalizedStringKey(verbatim: String(s)) }
        self.init(titleKey: verbatim(title), id: id, selection: selection, optionKeys: options.map(verbatim))
    }

    /// A picker whose title and options are keys, looked up in the window's string catalog.
    public convenience init(_ title: LocalizedStringKey, id: String? = nil, selection: Binding<Int>, options: [LocalizedStringKey]) {
        self.init(titleKey: title, id: id, selection: selection, optionKeys: options)
    }

    private init(titleKey: LocalizedStringKey, id: String?, selection: Binding<Int>, optionKeys: [LocalizedStringKey]) {
        self.titleKey = titleKey
        options = optionKeys.map(\.key)
        binding = selection
        self.selection = options.isEmpty ? -1 : min(options.count - 1, max(0, selection.wrappedValue))
        super.init(id: id)
        themedCorner = \.segment
        for (i, option) in optionKeys.enumerated() {
            let segment = Box(id: id.map { "\($0).\(i)" }).cornered(\.segmentInside)
            let label = Label(option, alignment: .center, maxLines: 1).font(.subheadline).minimumScaleFactor(0.7)
            segment.add(label)
            segment.contentAlignment = .center
            segments.append(segment)
            labels.append(label)
            add(segment)
        }
        enabledChanged()
        if options.isEmpty { problems.append("has no options: there is nothing to choose") }
        follow(selection) { [unowned self] v in show(v) }
    }

    override func enabledChanged() {
        for (i, segment) in segments.enumerated() {
            segment.onTap = isEnabled ? { [weak self] in self?.set(i) } : nil
        }
        accessibility.adjust = isEnabled ? { [unowned self] direction in set(selection + direction) } : nil
        restyleLabels()
    }

    private func restyleLabels() {
        for (i, label) in labels.enumerated() {
            label.color = titleColor
            label.fontWeight = i == selection ? .semibold : .regular
        }
    }

    package override var controlKind: String { "picker" }
    package override var controlValue: Double? { Double(selection) }

    private func show(_ index: Int) {
        guard !options.isEmpty else { return }
        let i = min(options.count - 1, max(0, index))
        guard i != selection else { return }
        if let now = host?.currentTime { slide = Slide(from: thumbPosition(at: now), to: Double(i), start: now) }
        selection = i
        restyleLabels()
        setNeedsDisplay()
    }

    private func set(_ index: Int) {
        show(index)
        if binding.wrappedValue != selection { binding.wrappedValue = selection }
    }

    /// The thumb's place as a segment index (fractional while it slides).
    private func thumbPosition(at t: Double) -> Double {
        slide?.value(at: t) ?? Double(selection)
    }

    public func sample(at t: Double) { Slide.sample(&slide, of: self, at: t) }

    public func isAnimating(at t: Double) -> Bool { slide != nil }

    // MARK: Layout and drawing

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let w = width ?? proposal.width
        let natural = labels.map { $0.sizeThatFits(Size(width: .infinity, height: .infinity)) }
        let widest = (natural.map(\.width).max() ?? 0) + 24
        let h = max(Self.minimumTarget, (natural.map(\.height).max() ?? 0) + 16)
        return Size(width: w.isFinite ? w : widest * Double(max(1, options.count)) + 4, height: height ?? h)
    }

    public override func layoutChildren() {
        guard !segments.isEmpty else { return }
        let w = (frame.width - 4) / Double(segments.count)
        for (i, segment) in segments.enumerated() {
            segment.frame = Rect(x: 2 + Double(i) * w, y: 2, width: w, height: frame.height - 4)
            segment.layoutChildren()
        }
        mirrorChildrenIfRightToLeft()
    }

    public override func draw(in context: inout DrawContext) {
        sayProblems()
        let bounds = Rect(origin: .zero, size: frame.size)
        context.fill(bounds, cornerRadius: cornerRadius(in: context.theme), color: .segmentTrack)
        guard !segments.isEmpty, selection >= 0 else { return }
        let w = (frame.width - 4) / Double(segments.count)
        let along = thumbPosition(at: context.time)
        let x = isRightToLeft ? frame.width - 2 - (along + 1) * w : 2 + along * w
        let thumb = Rect(x: x, y: 2, width: w, height: frame.height - 4)
        context.fill(
            thumb.offsetBy(dx: 0, dy: 1), cornerRadius: context.theme.cornerRadii.segmentInside, color: Color.shadow.withOpacity(20 / 255))
        context.fill(thumb, cornerRadius: context.theme.cornerRadii.segmentInside, color: isEnabled ? .chosenSegment : .disabledThumb)
        // The chosen segment's edge, so that its white shows on the light track (WCAG 1.4.11).
        let contrast = context.isHighContrast
        context.stroke(
            thumb.insetBy(dx: contrast ? 1 : 0.5, dy: contrast ? 1 : 0.5), cornerRadius: context.theme.cornerRadii.segmentInside,
            lineWidth: contrast ? 2 : 1,
            color: contrast ? .primaryText : isEnabled ? Color.fieldBorder : Color.fieldBorder.withOpacity(0.45)
        )
    }

    /// The chosen segment as it rests, in local points.
    var restingThumb: Rect? {
        guard !segments.isEmpty, selection >= 0 else { return nil }
        let w = (frame.width - 4) / Double(segments.count)
        let x = isRightToLeft ? frame.width - 2 - Double(selection + 1) * w : 2 + Double(selection) * w
        return Rect(x: x, y: 2, width: w, height: frame.height - 4)
    }

    /// Left and right move the choice the way the arrow points.
    package func handleKey(_ key: Key) -> Bool {
        guard isEnabled, !options.isEmpty else { return false }
        let forward = isRightToLeft ? -1 : 1
        switch key {
        case .right: set(selection + forward)
        case .left: set(selection - forward)
        default: return false
        }
        return true
    }

    @_spi(Hooks) override public var accessibilityDescription: AccessibilityDescription? {
        let chosen = selection >= 0 ? labels[selection].text : nil
        let position = selection >= 0 ? "\(selection + 1)/\(options.count)" : nil
        let value = [chosen, position].compactMap { $0 }.joined(separator: ", ")
        return AccessibilityDescription(
            role: .adjustable, label: environment.localized(titleKey), value: spokenValue(value), combinesChildren: true)
    }
}

extension Picker: EssentialPartsReporter {
    /// The chosen segment, by its edge.
    package var essentialParts: [EssentialPart] {
        restingThumb.map { [EssentialPart("chosen segment", rect: $0, color: Color.fieldBorder)] } ?? []
    }
}
