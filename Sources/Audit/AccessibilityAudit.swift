@_spi(Hooks) import ViewCore
import Accessibility
import Geometry
import Raster
import UI
import Widgets
#if canImport(Glibc)
import Glibc
#endif

/// Something on a screen that keeps a person from using it, found by `glide audit` (or
/// `Kiosk.audit`): the rule it breaks, where, and the figure measured.
public struct AccessibilityFinding: Encodable, Sendable {
    /// `contrast`, `target-size`, `label`, `overflow`, `keypad`, `timeout`, `motion` or `rest`.
    public var rule: String
    /// The view's id; nil when it has none (the message then names its kind and text).
    public var id: String?
    /// Where it is on the screen, in pixels: x, y, width, height.
    public var frame: [Double]
    /// What was measured: the contrast ratio, a target's shorter side in points, the seconds of
    /// a timeout or an animation; nil where a rule measures nothing.
    public var figure: Double?
    /// The screen it was found on (a screenshot's name in the script, or `first`, `first-200`).
    public var screen: String
    /// What is wrong and what fixes it, in English.
    public var message: String

    package init(rule: String, id: String?, frame: [Double], figure: Double?, screen: String, message: String) {
        self.rule = rule; self.id = id; self.frame = frame; self.figure = figure; self.screen = screen; self.message = message
    }

    /// A finding about `view`, where it shows in `window`.
    init(rule: String, about view: View, in window: Window, figure: Double?, screen: String, message: String) {
        let r = window.visibleRect(of: view), s = window.scaleFactor
        self.init(
            rule: rule, id: view.id, frame: [r.minX * s, r.minY * s, r.width * s, r.height * s], figure: figure, screen: screen,
            message: message)
    }
}

/// The rules, derived from WCAG 2.2 AA and the European Accessibility Act's requirements for
/// self-service terminals, checked on one screen: the window's views as laid out and the pixels
/// as drawn. Pure: the window and its frame are passed in.
package struct AccessibilityAudit {
    /// The rules checked (all by default).
    package var rules: Set<String> = Self.allRules
    /// The rules' names, in the order the documentation gives them.
    package static let ruleNames = ["contrast", "target-size", "label", "overflow", "keypad", "timeout", "motion", "rest"]
    package static let allRules = Set(ruleNames)
    /// The smallest target side, in points (WCAG 2.5.5's 44; 2.5.8 asks 24, kiosks more).
    package static let minimumTarget = 44.0

    package init(rules: Set<String>? = nil) {
        if let rules { self.rules = rules }
    }

    /// The findings on `window`'s screen as drawn in `pixels`, called `screen`; `layoutProblems`
    /// are the layouts the window said were wrong since the last screen (cut off, cut short).
    package func findings(
        in window: Window, pixels: PixelBuffer, screen: String, layoutProblems: [Window.LayoutProblem] = []
    ) -> [AccessibilityFinding] {
        window.layoutIfNeeded()
        var scan = Scan(window: window, pixels: pixels, screen: screen)
        scan.walk(window.readableLayers)
        var out: [AccessibilityFinding] = []
        // Contrast is the screen's at rest: mid-motion a sliding screen's shade passes over text.
        if rules.contains("contrast"), window.isAtRest(at: window.currentTime) {
            out += scan.labels.compactMap(scan.contrast)
            // The focus ring is not measured: its two colours (`Window.focusRingColors`) stand at
            // least 4:1 apart whatever the accent, so it shows on any background (AuditTests).
            out += scan.parts.flatMap(scan.partContrast)
        }
        if rules.contains("target-size") { out += scan.targets.compactMap { scan.targetSize($0, among: scan.targets) } }
        if rules.contains("label") {
            out += scan.targets.compactMap(scan.unlabelled) + scan.images.compactMap(scan.unlabelledImage)
            out += scan.readingOrder(window.accessibilityElements())
        }
        if rules.contains("keypad") { out += scan.targets.compactMap(scan.unreachable) }
        if rules.contains("overflow") {
            // A view past the edge inside a stack already said to be cut off is that one finding.
            let said = layoutProblems.compactMap { p in p.view.map { ($0, p.message) } }
            out += scan.offScreen(except: said.map(\.0))
            out += said.map { scan.finding("overflow", $0.0, figure: nil, $0.1) }
            out += scan.labels.compactMap(scan.cutShort) + scan.labels.compactMap(scan.brokenInside) + scan.overlaps()
        }
        if rules.contains("timeout"), let f = scan.timeout() { out.append(f) }
        return out
    }

    /// What still moves `seconds` after the last input, at `t` (a spinner that never ends, a
    /// ticker): it needs a way to stop it (WCAG 2.2.2). The caller plays the time.
    package func motion(in window: Window, at t: Double, seconds: Double, screen: String) -> [AccessibilityFinding] {
        guard rules.contains("motion"), !window.isAtRest(at: t) else { return [] }
        return window.animatingViews(at: t).map { v in
            AccessibilityFinding(
                rule: "motion", about: v, in: window, figure: seconds, screen: screen,
                message:
                    "\(v.logName) still moves \(Int(seconds)) s after the last input (stop it within 5 s, or give the person a way to pause it)"
            )
        }
    }

    /// A screen that keeps drawing frames that change nothing, `seconds` after the last input:
    /// `askers` are the views that asked for them (a layout or a redraw asked for in every
    /// frame, an animation that shows nothing). It is never still, so its loop draws for ever,
    /// heating the panel and keeping the kiosk's processor from idling. The caller plays the
    /// time and compares the frames.
    package func rest(askers: [View], in window: Window, seconds: Double, screen: String) -> [AccessibilityFinding] {
        guard rules.contains("rest") else { return [] }
        let why = "\(Int(seconds)) s after the last input, and the frames change nothing"
        let fix = "set a property only when its value changes, and stop an animation that shows nothing"
        guard !askers.isEmpty else {
            return [
                AccessibilityFinding(
                    rule: "rest", id: nil, frame: [0, 0, Double(window.pixelWidth), Double(window.pixelHeight)], figure: seconds,
                    screen: screen, message: "the screen still draws frames \(why) (\(fix))")
            ]
        }
        return askers.map { v in
            AccessibilityFinding(
                rule: "rest", about: v, in: window, figure: seconds, screen: screen,
                message: "\(v.logName) keeps asking for frames \(why) (\(fix))")
        }
    }

    // MARK: Contrast (WCAG 1.4.3)

    /// WCAG's relative luminance of an sRGB colour.
    package static func luminance(red: UInt8, green: UInt8, blue: UInt8) -> Double {
        func linear(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG's contrast ratio of two luminances (1 to 21).
    package static func contrastRatio(_ a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}

/// One walk over a screen's views, sorting out what the rules look at.
struct Scan {
    let window: Window
    let pixels: PixelBuffer
    let screen: String
    var labels: [StaticText] = []
    var targets: [View] = []
    var images: [PictureView] = []
    var unclipped: [View] = []
    var parts: [EssentialPartsReporter] = []
    /// Section headers pinned over a list's rows, which cover the rows' text by design.
    var pinned: [View] = []

    init(window: Window, pixels: PixelBuffer, screen: String) {
        self.window = window
        self.pixels = pixels
        self.screen = screen
    }

    mutating func walk(_ layers: [View]) {
        func visit(_ v: View, inScroll: Bool) {
            guard !v.isHidden, !window.visibleRect(of: v).isEmpty else { return }
            if let l = v as? StaticText, !l.text.isEmpty, !l.accessibility.hidden { labels.append(l) }
            if let i = v as? PictureView, !i.accessibility.hidden { images.append(i) }
            if v.onTap != nil || v.onLongPress != nil || v.isFocusable { targets.append(v) }
            if let p = v as? EssentialPartsReporter { parts.append(p) }
            if let d = v as? DamageSource { pinned += d.pinnedViews }
            if !inScroll, v.onTap != nil || v is StaticText { unclipped.append(v) }
            let scrolls = inScroll || v.contentTransform != nil
            for c in v.children { visit(c, inScroll: scrolls) }
        }
        for layer in layers { visit(layer, inScroll: false) }
    }

    func finding(_ rule: String, _ v: View, figure: Double?, _ message: String) -> AccessibilityFinding {
        AccessibilityFinding(rule: rule, about: v, in: window, figure: figure, screen: screen, message: message)
    }

    func name(_ v: View) -> String {
        if v.id == nil, let l = v as? StaticText { return "label \"\(l.text.prefix(40))\"" }
        return v.logName
    }

    /// The text's colour against the colour most of its box is painted in, as drawn: the nearest
    /// WCAG's formula gets to "the text against what is behind it" on any background. Large text
    /// (24 points, or 18.66 bold: WCAG's 18 and 14 typographic points) needs 3:1, other text 4.5:1.
    func contrast(_ label: StaticText) -> AccessibilityFinding? {
        // A disabled control's words are exempt (WCAG: part of an inactive component).
        if label.ancestors.contains(where: { ($0 as? ControlReporter)?.isEnabled == false }) { return nil }
        guard let box = pixelBox(label), let background = dominantColour(in: box) else { return nil }
        // The colour as drawn: a theme's role in the theme in force around the label.
        let theme = label.environment.theme
        let drawn = theme.resolve(label.color)
        let ratio = Self.ratio(
            Self.blend(theme.isHighContrast ? HighContrast.text(drawn, in: theme.colorScheme) : drawn, over: background), background)
        let size = label.fontSize * window.textScale
        let bold = label.fontWeight == .bold || label.fontWeight == .semibold
        let large = size >= 24 || (bold && size >= 18.66)
        let needed = large ? 3.0 : 4.5
        guard ratio < needed - 1e-9 else { return nil }
        let figure = (ratio * 100).rounded() / 100
        return finding(
            "contrast", label, figure: figure,
            "\(name(label)): text contrast \(figure):1 against its background, below \(needed == 3 ? "3" : "4.5"):1 for \(large ? "large" : "body") text (darken the text or lighten what is behind it)"
        )
    }

    func pixelBox(_ v: View) -> IntRect? {
        let r = window.visibleRect(of: v), s = window.scaleFactor
        let x0 = max(0, Int((r.minX * s).rounded(.down))), y0 = max(0, Int((r.minY * s).rounded(.down)))
        let x1 = min(pixels.width, Int((r.maxX * s).rounded(.up))), y1 = min(pixels.height, Int((r.maxY * s).rounded(.up)))
        return x1 > x0 && y1 > y0 ? IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// `c` drawn over the opaque `background`.
    static func blend(_ c: Color, over background: Color) -> Color {
        let a = Double(c.alpha) / 255
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) * a + Double(y) * (1 - a)).rounded()) }
        return Color(red: mix(c.red, background.red), green: mix(c.green, background.green), blue: mix(c.blue, background.blue))
    }

    /// The colour most pixels of `box` (less those in `hole`) have: what the text is drawn on.
    func dominantColour(in box: IntRect, excluding hole: IntRect? = nil) -> Color? {
        var counts: [UInt32: Int] = [:]
        for y in box.y..<box.maxY {
            // A row through the hole counts the pixels left and right of it.
            let skip = hole.flatMap { h in y >= h.y && y < h.maxY ? h.x..<h.maxX : nil } ?? 0..<0
            for x in box.x..<box.maxX where !skip.contains(x) { counts[pixels[x, y] | 0xFF00_0000, default: 0] += 1 }
        }
        guard let argb = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key else { return nil }
        return Color(red: UInt8((argb >> 16) & 0xFF), green: UInt8((argb >> 8) & 0xFF), blue: UInt8(argb & 0xFF))
    }

    // MARK: Non-text contrast (WCAG 1.4.11)

    /// Each part of a control that shows what it is or its state (`EssentialPart`) against the
    /// colour most of the two pixels around it have: 3:1. Disabled controls are exempt, and so is
    /// high contrast, where every built-in control strokes those parts black.
    func partContrast(_ v: EssentialPartsReporter) -> [AccessibilityFinding] {
        guard !window.isHighContrast, (v as? ControlReporter)?.isEnabled != false else { return [] }
        let origin = v.frameInWindow.origin, visible = window.visibleRect(of: v), theme = v.environment.theme
        let ring = window.focusedView === v ? Window.focusRingOutset : 0
        return parts(of: v).compactMap { part in
            let r = part.rect.offsetBy(dx: origin.x, dy: origin.y)
            // Partly scrolled out of sight: measured when it shows whole.
            guard visible.insetBy(dx: -ring, dy: -ring).intersection(r).size == r.size,
                let ratio = ratio(of: theme.resolve(part.color), around: r)
            else { return nil }
            return ratio >= 3 - 1e-9
                ? nil
                : finding(
                    "contrast", v, figure: ratio,
                    "\(name(v)): its \(part.name) stands out \(ratio):1 from what is next to it, below 3:1 for what shows a control or its state (darken its edge)"
                )
        }
    }

    /// The parts that show what `v` is: its own, or, while it has the keypad's focus, the focus
    /// ring drawn round it, which is then its edge (its border lies against the ring's halo).
    func parts(of v: EssentialPartsReporter) -> [EssentialPart] {
        guard window.focusedView === v else { return v.essentialParts }
        let ring = Rect(origin: .zero, size: v.frame.size).insetBy(dx: -Window.focusRingOutset, dy: -Window.focusRingOutset)
        return [EssentialPart("focus ring", rect: ring, color: window.focusRingColors.ring)]
    }

    /// The contrast of `color` (over what is there) against the colour most of the two pixels
    /// around `r` have, rounded to hundredths; nil when they are off the screen.
    func ratio(of color: Color, around r: Rect) -> Double? {
        let s = window.scaleFactor
        let x0 = Int((r.minX * s).rounded()), y0 = Int((r.minY * s).rounded())
        let inside = IntRect(x: x0, y: y0, width: Int((r.maxX * s).rounded()) - x0, height: Int((r.maxY * s).rounded()) - y0)
        let around = IntRect(x: inside.x - 2, y: inside.y - 2, width: inside.width + 4, height: inside.height + 4)
            .intersection(IntRect(x: 0, y: 0, width: pixels.width, height: pixels.height))
        guard !around.isEmpty, let background = dominantColour(in: around, excluding: inside) else { return nil }
        return (Self.ratio(Self.blend(color, over: background), background) * 100).rounded() / 100
    }

    /// WCAG's contrast ratio of two opaque colours.
    static func ratio(_ a: Color, _ b: Color) -> Double {
        AccessibilityAudit.contrastRatio(
            AccessibilityAudit.luminance(red: a.red, green: a.green, blue: a.blue),
            AccessibilityAudit.luminance(red: b.red, green: b.green, blue: b.blue))
    }

    // MARK: Targets (WCAG 2.5.5 and 2.5.8)

    /// A target smaller than 44 points either way passes when a 44-point circle centred on it
    /// touches no other target (WCAG 2.5.8's spacing exception).
    func targetSize(_ v: View, among all: [View]) -> AccessibilityFinding? {
        let f = v.frameInWindow
        // Partly scrolled out of sight: measured when it shows whole.
        guard window.visibleRect(of: v).size == f.size else { return nil }
        let side = min(f.width, f.height)
        guard side < AccessibilityAudit.minimumTarget - 1e-9 else { return nil }
        let centre = Point(x: f.midX, y: f.midY), radius = AccessibilityAudit.minimumTarget / 2
        let crowded = all.contains { other in
            guard other !== v, !v.ancestors.contains(where: { $0 === other }), !other.ancestors.contains(where: { $0 === v }) else {
                return false
            }
            let o = other.frameInWindow
            let dx = max(o.minX - centre.x, 0, centre.x - o.maxX), dy = max(o.minY - centre.y, 0, centre.y - o.maxY)
            return dx * dx + dy * dy < radius * radius
        }
        guard crowded else { return nil }
        let figure = (side * 10).rounded() / 10
        return finding(
            "target-size", v, figure: figure,
            "\(name(v)) is \(Int(f.width.rounded())) by \(Int(f.height.rounded())) points, under 44, and another target is within 22 points of its centre (make it 44 points or move the others away)"
        )
    }

    // MARK: Labels (WCAG 1.1.1, 4.1.2)

    func unlabelled(_ v: View) -> AccessibilityFinding? {
        guard !v.accessibility.hidden, spokenLabel(v).isEmpty else { return nil }
        return finding(
            "label", v, figure: nil,
            "\(name(v)) can be touched but has nothing a screen reader can say (give it accessibilityLabel(_:) or a title)")
    }

    func unlabelledImage(_ v: PictureView) -> AccessibilityFinding? {
        guard (v.accessibility.label ?? "").isEmpty else { return nil }
        return finding(
            "label", v, figure: nil,
            "\(name(v)) is a picture without a label (say what it shows with accessibilityLabel(_:), or hide it with accessibilityHidden() when it is decoration)"
        )
    }

    /// What the screen reader says for `v`: its own label, else the text inside it.
    func spokenLabel(_ v: View) -> String {
        if let l = v.accessibility.label, !l.isEmpty { return l }
        if let d = v.accessibilityDescription, !d.label.isEmpty { return d.label }
        var texts: [String] = []
        func gather(_ n: View) {
            guard !n.isHidden, !n.accessibility.hidden else { return }
            if let t = n.accessibilityText, !t.isEmpty { texts.append(t) }
            for c in n.children { gather(c) }
        }
        for c in v.children { gather(c) }
        return texts.joined(separator: " ")
    }

    // MARK: Keypad (WCAG 2.1.1; EAA: operable without touch)

    /// A view that reacts to a touch but that Tab never reaches (neither it nor a view holding it
    /// takes focus) cannot be used from the keypad. A modal's dimmed screen is not one: a tap
    /// there cancels it, as Esc does.
    func unreachable(_ v: View) -> AccessibilityFinding? {
        guard v.onTap != nil || v.onLongPress != nil, !v.isFocusable, !(v is ModalContent),
            !v.ancestors.contains(where: { $0.isFocusable })
        else { return nil }
        return finding(
            "keypad", v, figure: nil, "\(name(v)) reacts to touch but the keypad cannot reach it (make it focusable(), or use a Button)")
    }

    // MARK: Overflow (WCAG 1.4.4, 1.4.10)

    /// Text and targets outside any scroll view that lie past the screen's edge: nobody can
    /// scroll to them. Views inside one the window already said was cut (`said`) are that finding.
    func offScreen(except said: [View]) -> [AccessibilityFinding] {
        let screen = Rect(
            x: 0, y: 0, width: Double(window.pixelWidth) / window.scaleFactor, height: Double(window.pixelHeight) / window.scaleFactor)
        return unclipped.compactMap { v in
            guard !v.selfAndAncestors.contains(where: { a in said.contains { $0 === a } }) else { return nil }
            let f = v.frameInWindow
            guard f.width > 0, f.height > 0, f.minX < -0.5 || f.minY < -0.5 || f.maxX > screen.maxX + 0.5 || f.maxY > screen.maxY + 0.5
            else { return nil }
            return finding(
                "overflow", v, figure: nil,
                "\(name(v)) runs past the edge of the screen, outside any scroll view (put the screen in a ScrollView, or let it wrap)")
        }
    }

    /// A label that larger text cut short with an ellipsis (WCAG 1.4.4: no loss of content at
    /// 200 %); text cut at 100 % too is the app's choice, not the text size's.
    func cutShort(_ label: StaticText) -> AccessibilityFinding? {
        guard label.isCutByTextScale else { return nil }
        let percent = (window.textScale * 100).rounded()
        return finding(
            "overflow", label, figure: percent,
            "\(name(label)) is cut short with an ellipsis at \(Int(percent)) % text, where it shows whole at 100 % (let it wrap, or give it room)"
        )
    }

    /// A label so narrow for its text, at the text size checked, that a word is broken between
    /// its letters (at 300 % a name can run down one letter a line): nobody reads it as a word.
    func brokenInside(_ label: StaticText) -> AccessibilityFinding? {
        let words = label.wordsBrokenInside
        guard let first = words.first else { return nil }
        let percent = (window.textScale * 100).rounded()
        let more = words.count > 1 ? " and \(words.count - 1) more" : ""
        return finding(
            "overflow", label, figure: percent,
            "\(name(label)) breaks \"\(first)\"\(more) inside the word at \(Int(percent)) % text (give it room: let its column grow with the text, or stack the row)"
        )
    }

    /// Text drawn over other text: two labels, neither inside the other, whose lines cover the
    /// same spot by more than a point each way (a layout that did not make room as text grew).
    func overlaps() -> [AccessibilityFinding] {
        let shown: [(StaticText, Rect)] = labels.compactMap { l in
            guard !l.selfAndAncestors.contains(where: { a in pinned.contains { $0 === a } }), let t = l.textBounds else { return nil }
            let f = l.frameInWindow
            return (l, t.offsetBy(dx: f.minX, dy: f.minY).intersection(window.visibleRect(of: l)))
        }
        var out: [AccessibilityFinding] = []
        for (i, (a, ra)) in shown.enumerated() {
            for (b, rb) in shown[(i + 1)...] {
                let both = ra.intersection(rb)
                guard both.width > 1, both.height > 1, !a.ancestors.contains(where: { $0 === b }),
                    !b.ancestors.contains(where: { $0 === a })
                else {
                    continue
                }
                out.append(
                    finding(
                        "overflow", b, figure: nil,
                        "\(name(b)) is drawn over \(name(a)) (the layout did not make room: let it wrap or stack)"))
            }
        }
        return out
    }

    // MARK: Reading order (WCAG 1.3.2, 2.4.3)

    /// The screen reader's order against the layout's: reading goes down a column and along a
    /// line the way the text runs, so an element read after one it sits wholly above (in the
    /// same column) or wholly before on the same line is out of order.
    func readingOrder(_ elements: [AccessibilityElement]) -> [AccessibilityFinding] {
        let rightToLeft = window.layoutDirection == .rightToLeft
        var out: [AccessibilityFinding] = []
        for (a, b) in zip(elements, elements.dropFirst()) {
            // Whole frames: a page half scrolled out of a carousel still sits where it sits.
            let (fa, fb) = (a.view.frameInWindow, b.view.frameInWindow)
            let sameColumn = min(fa.maxX, fb.maxX) - max(fa.minX, fb.minX) > 1
            let sameLine = fb.midY > fa.minY && fb.midY < fa.maxY && fa.midY > fb.minY && fa.midY < fb.maxY
            let above = fb.maxY <= fa.minY - 1 && sameColumn
            let before = sameLine && (rightToLeft ? fb.minX >= fa.maxX + 1 : fb.maxX <= fa.minX - 1)
            guard above || before else { continue }
            out.append(
                finding(
                    "label", b.view, figure: nil,
                    "\(name(b.view)) is read after \(name(a.view)) but sits \(above ? "above" : "before") it (order the views as they are laid out)"
                ))
        }
        return out
    }

    // MARK: Timeout (WCAG 2.2.1; EAA: enough time)

    func timeout() -> AccessibilityFinding? {
        guard window.idleResetSeconds > 0, !window.warnsBeforeIdleReset else { return nil }
        return AccessibilityFinding(
            rule: "timeout", id: nil, frame: [0, 0, Double(window.pixelWidth), Double(window.pixelHeight)],
            figure: window.idleResetSeconds, screen: screen,
            message:
                "the screen starts over after \(window.idleResetSeconds) s without input and warns nobody first (set idleResetWarningSeconds and onIdleResetWarning to let the person ask for more time)"
        )
    }
}
