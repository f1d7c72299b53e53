import FoundationEssentials
import Geometry
import Scrolling

/// The UI state a test reads (HL-1, REM-1): every scroll view and page control on screen with
/// its id, and the visible tappable or focusable views with ids. `frame` is the element's visible rectangle on screen in pixels (where to touch);
/// other lengths are points.
public struct WindowState: Codable, Hashable, Sendable {
    public struct ScrollViewState: Codable, Hashable, Sendable {
        public var id: String?
        public var frame: [Double]
        public var offset: [Double]
        public var contentSize: [Double]
        public var viewportSize: [Double]
        public var scale: Double
        public var phase: String
        public var atRest: Bool
        public var topId: String?
        public var page: Int?
        public var pageCount: Int?
    }
    public struct PageControlState: Codable, Hashable, Sendable {
        public var id: String?
        public var frame: [Double]
        public var currentPage: Int
        public var pageCount: Int
        public var interaction: String
        public var background: String
    }
    /// A visible view with an id that reacts to a tap or takes focus (a tab, a card, a row), so a
    /// remote test can find where to touch without knowing the view tree.
    public struct ElementState: Codable, Hashable, Sendable {
        public var id: String
        public var frame: [Double]
        public var tappable: Bool
        public var focusable: Bool
    }
    public var t: Double
    public var frameNumber: Int
    public var scrollViews: [ScrollViewState]
    public var pageControls: [PageControlState]
    public var elements: [ElementState]
    public var focus: String?
}

// Optional fields are written as null, not left out, so that a client reading `page` or
// `focus` finds the key whether or not it has a value.
extension WindowState {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(t, forKey: .t)
        try c.encode(frameNumber, forKey: .frameNumber)
        try c.encode(scrollViews, forKey: .scrollViews)
        try c.encode(pageControls, forKey: .pageControls)
        try c.encode(elements, forKey: .elements)
        try c.encode(focus, forKey: .focus)
    }
}

extension WindowState.ScrollViewState {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(frame, forKey: .frame)
        try c.encode(offset, forKey: .offset)
        try c.encode(contentSize, forKey: .contentSize)
        try c.encode(viewportSize, forKey: .viewportSize)
        try c.encode(scale, forKey: .scale)
        try c.encode(phase, forKey: .phase)
        try c.encode(atRest, forKey: .atRest)
        try c.encode(topId, forKey: .topId)
        try c.encode(page, forKey: .page)
        try c.encode(pageCount, forKey: .pageCount)
    }
}

extension WindowState.PageControlState {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(frame, forKey: .frame)
        try c.encode(currentPage, forKey: .currentPage)
        try c.encode(pageCount, forKey: .pageCount)
        try c.encode(interaction, forKey: .interaction)
        try c.encode(background, forKey: .background)
    }
}

func rounded(_ v: Double, _ places: Double = 1000) -> Double { (v * places).rounded() / places }

extension Window {
    /// The state at `t` (samples the engines at `t`).
    public func state(at t: Double, frameNumber: Int) -> WindowState {
        layoutIfNeeded(at: t)
        sampleScrollViews(at: t)
        let s = scaleFactor
        func pixels(_ r: Rect) -> [Double] { [rounded(r.minX * s), rounded(r.minY * s), rounded(r.width * s), rounded(r.height * s)] }
        var scrolls: [WindowState.ScrollViewState] = []
        var controls: [WindowState.PageControlState] = []
        for v in animatedViews {
            let visible = visibleRect(of: v)
            guard !visible.isEmpty else { continue }
            if let sv = v as? ScrollView {
                let engine = sv.controller.state(at: t)
                let paging = sv.configuration.isPagingEnabled
                scrolls.append(.init(
                    id: sv.id, frame: pixels(visible),
                    offset: [rounded(engine.offset.x), rounded(engine.offset.y)],
                    contentSize: [rounded(sv.content.frame.width), rounded(sv.content.frame.height)],
                    viewportSize: [rounded(sv.frame.width), rounded(sv.frame.height)],
                    scale: rounded(engine.scale, 10000), phase: engine.phase.rawValue, atRest: engine.phase == .idle,
                    topId: sv.reportedID, page: paging ? sv.currentPage : nil, pageCount: paging ? sv.pageCount : nil))
            } else if let pc = v as? PageControl {
                controls.append(.init(id: pc.id, frame: pixels(visible), currentPage: pc.currentPage,
                                      pageCount: pc.pageCount, interaction: pc.interaction.rawValue,
                                      background: pc.backgroundStyle.rawValue))
            }
        }
        var elements: [WindowState.ElementState] = []
        func collectElements(_ v: View) {
            guard !v.isHidden else { return }
            if let id = v.id, v.onTap != nil || v.isFocusable {
                let visible = visibleRect(of: v)
                if !visible.isEmpty {
                    elements.append(.init(id: id, frame: pixels(visible), tappable: v.onTap != nil, focusable: v.isFocusable))
                }
            }
            for c in v.children { collectElements(c) }
        }
        collectElements(root)
        return WindowState(t: rounded(t), frameNumber: frameNumber, scrollViews: scrolls, pageControls: controls,
                           elements: elements, focus: focusedView?.id)
    }

    public func stateJSON(at t: Double, frameNumber: Int) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state(at: t, frameNumber: frameNumber)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
