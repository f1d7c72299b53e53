@_spi(Hooks) import ViewCore
import Geometry

/// One column of a `LazyVGrid` (one row of a `LazyHGrid`): how wide it is, and the space after it.
public struct GridItem: Hashable, Sendable {
    /// How a grid item's track is sized.
    public enum Size: Hashable, Sendable {
        /// Exactly this many points.
        case fixed(Double)
        /// A share of what the fixed tracks leave, kept between `minimum` and `maximum`.
        case flexible(minimum: Double = 10, maximum: Double = .infinity)
        /// As many tracks of at least `minimum` points as fit in its share (a product grid that
        /// shows 2 columns on a portrait screen and 5 on a wide one), each at most `maximum`. The
        /// minimum grows with the window's text size (twice as wide at 200 %), so that larger
        /// text gets fewer, wider columns instead of words broken inside.
        case adaptive(minimum: Double, maximum: Double = .infinity)
    }
    /// How the track is sized.
    public var size: Size
    /// Points after this track; nil: the grid's spacing.
    public var spacing: Double?

    /// A track sized by `size` (flexible by default), `spacing` points from the next one.
    public init(_ size: Size = .flexible(), spacing: Double? = nil) {
        self.size = size
        self.spacing = spacing
    }
}

/// What a grid's rows share: its tracks, its items, and the tracks' sizes at the last width.
final class GridModel {
    let items: [GridItem]
    let spacing: Double
    /// Items per section (one section in a grid made without sections).
    var sectionCounts: [Int]
    /// Builds item `item` of section `section`.
    let makeItem: (_ section: Int, _ item: Int) -> View
    /// The tracks' lengths across the grid and where each starts, at `resolvedFor`.
    private(set) var tracks: [(start: Double, length: Double)] = []
    private(set) var resolvedFor: (length: Double, textScale: Double)?
    /// What is wrong with the app's tracks, said once the grid is in a window.
    var problems: [String] = []

    init(items: [GridItem], spacing: Double, sectionCounts: [Int], makeItem: @escaping (Int, Int) -> View) {
        self.items = items
        self.spacing = spacing.isFinite ? max(0, spacing) : 0
        self.sectionCounts = sectionCounts.map { max(0, $0) }
        self.makeItem = makeItem
        if items.isEmpty { problems.append("has no columns: it shows its items in one flexible column") }
        if items.contains(where: { !Self.isSane($0) }) {
            problems.append("has a track size that is negative or not a number: it counts as 0 (a minimum as 10)")
        }
        // Until a width is known, each adaptive item counts as one track.
        tracks = Array(repeating: (0, 0), count: max(1, items.count))
    }

    private static func isSane(_ item: GridItem) -> Bool {
        func ok(_ v: Double) -> Bool { !v.isNaN && v >= 0 }
        switch item.size {
        case let .fixed(w): return w.isFinite && ok(w)
        case let .flexible(lo, hi), let .adaptive(lo, hi): return lo.isFinite && ok(lo) && ok(hi)
        }
    }

    var perRow: Int { max(1, tracks.count) }
    var itemCount: Int { sectionCounts.reduce(0, +) }
    /// Rows in each section.
    var rowCounts: [Int] { sectionCounts.map { ($0 + perRow - 1) / perRow } }

    /// Sizes the tracks for `length` points across; true when the number per row changed.
    @discardableResult
    func resolve(for length: Double, textScale: Double = 1) -> Bool {
        guard length.isFinite, resolvedFor.map({ $0 != (length, textScale) }) ?? true else { return false }
        let before = perRow
        resolvedFor = (length, textScale)
        let items = self.items.isEmpty ? [GridItem()] : self.items
        func clean(_ v: Double, _ fallback: Double) -> Double { v.isNaN || v < 0 ? fallback : v }
        func gap(_ i: Int) -> Double { clean(items[i].spacing ?? spacing, spacing) }
        let gaps = (0..<(items.count - 1)).reduce(0.0) { $0 + gap($1) }
        var remaining = max(0, length - gaps)
        var lengths: [[Double]] = Array(repeating: [], count: items.count)
        for (i, item) in items.enumerated() {
            if case let .fixed(w) = item.size {
                let v = w.isFinite ? clean(w, 0) : 0
                lengths[i] = [v]
                remaining -= v
            }
        }
        var open = items.indices.filter { lengths[$0].isEmpty }
        while let i = open.first {
            let share = max(0, remaining) / Double(open.count)
            switch items[i].size {
            case .fixed: break
            case let .flexible(lo, hi):
                lengths[i] = [min(clean(hi, .infinity), max(clean(lo, 10), share))]
            case let .adaptive(lo, hi):
                let minimum = max(1, lo.isFinite ? clean(lo, 10) : 10) * textScale
                let n = max(1, Int(((share + spacing) / (minimum + spacing)).rounded(.down)))
                // One track never overflows the share, whatever its minimum.
                let each = min(max(clean(hi, .infinity), minimum), max(min(minimum, share), (share - Double(n - 1) * spacing) / Double(n)))
                lengths[i] = Array(repeating: each, count: n)
            }
            remaining -= lengths[i].reduce(0, +) + Double(lengths[i].count - 1) * spacing
            open.removeFirst()
        }
        var position = 0.0
        tracks = []
        for (i, ls) in lengths.enumerated() {
            for (k, l) in ls.enumerated() {
                tracks.append((position, l))
                position += l + (k == ls.count - 1 ? (i == items.count - 1 ? 0 : gap(i)) : spacing)
            }
        }
        return perRow != before
    }
}

/// One row of a vertical grid (one column of a horizontal grid): its items side by side in
/// the grid's tracks, each centred across the row's length.
final class GridRow: View {
    let model: GridModel
    let vertical: Bool

    init(model: GridModel, section: Int, row: Int, vertical: Bool) {
        self.model = model
        self.vertical = vertical
        super.init()
        let first = row * model.perRow
        for i in first..<min(model.sectionCounts[section], first + model.perRow) { add(model.makeItem(section, i)) }
    }

    override var backdrop: Backdrop { .none }

    /// The item's size in its track of `track` points.
    private func size(of item: View, track: Double) -> Size {
        vertical
            ? item.constrained(item.sizeThatFits(Size(width: track, height: item.height ?? .infinity)))
            : item.constrained(item.sizeThatFits(Size(width: item.width ?? .infinity, height: track)))
    }

    /// The grid sized the tracks for its width before it built this row.
    override func sizeThatFits(_ proposal: Size) -> Size {
        var longest = 0.0
        for (item, track) in zip(children, model.tracks) {
            let s = size(of: item, track: track.length)
            longest = max(longest, vertical ? s.height : s.width)
        }
        return vertical ? Size(width: proposal.width, height: longest) : Size(width: longest, height: proposal.height)
    }

    override func layoutChildren() {
        for (item, track) in zip(children, model.tracks) {
            let s = size(of: item, track: track.length)
            item.frame =
                vertical
                ? Rect(x: track.start, y: (frame.height - s.height) / 2, width: track.length, height: s.height)
                : Rect(x: (frame.width - s.width) / 2, y: track.start, width: s.width, height: track.length)
            item.layoutChildren()
        }
        mirrorChildrenIfRightToLeft()
    }
}

/// A grid that scrolls vertically and builds only the rows on screen, as `LazyVStack` does: a
/// million items cost what is visible. `columns` size its columns (fixed, flexible, or adaptive:
/// as many as fit); items fill each row from the leading edge.
///
/// ```swift
/// let products = LazyVGrid(columns: [GridItem(.adaptive(minimum: 160))], count: menu.count, spacing: 12) { i in
///     ProductCard(menu[i])
/// }
/// ScrollView(id: "menu", content: products)
/// ```
///
/// In sections, each section's items start a new row under its header, and the header stays
/// pinned at the top while its items scroll under it (see `LazyVStack(sections:...)`):
///
/// ```swift
/// LazyVGrid(columns: [GridItem(.adaptive(minimum: 160))], sections: menu.map(\.count), header: { s in
///     Label(menu[s].name, size: 20).bold()
/// }) { s, i in
///     ProductCard(menu[s][i])
/// }
/// ```
///
/// A grid given no columns, or tracks of a negative or NaN size, says so once in the log and
/// shows one flexible column (sizes as 0).
public final class LazyVGrid: LazyStack {
    let gridModel: GridModel

    /// `count` items in rows of `columns`, `spacing` points apart both ways; `item(i)` builds
    /// item `i` when its row is about to show.
    public init(
        id: String? = nil, columns: [GridItem], count: Int, spacing: Double = 8, padding: EdgeInsets = .zero,
        item: @escaping (Int) -> View
    ) {
        let model = GridModel(items: columns, spacing: spacing, sectionCounts: [count]) { item($1) }
        gridModel = model
        super.init(.vertical, id: id, count: model.rowCounts[0], spacing: model.spacing, padding: padding) { row in
            GridRow(model: model, section: 0, row: row, vertical: true)
        }
    }

    /// `sections[s]` items in section `s`, under the view `header(s)` (pinned at the top while
    /// its items scroll, unless `pinnedHeaders` is false); `item(s, i)` builds item `i` of
    /// section `s` when its row is about to show.
    public init(
        id: String? = nil, columns: [GridItem], sections: [Int], spacing: Double = 8, padding: EdgeInsets = .zero,
        pinnedHeaders: Bool = true, header: @escaping (Int) -> View, item: @escaping (_ section: Int, _ item: Int) -> View
    ) {
        let model = GridModel(items: columns, spacing: spacing, sectionCounts: sections, makeItem: item)
        gridModel = model
        let source = SectionSource(
            sizes: sections, pinsHeaders: pinnedHeaders, header: header,
            bodyRows: { sizes in
                model.sectionCounts = sizes.map { max(0, $0) }
                return model.rowCounts
            }
        ) { GridRow(model: model, section: $0, row: $1, vertical: true) }
        super.init(.vertical, id: id, sections: source, spacing: model.spacing, padding: padding)
    }

    /// How many items it holds.
    public var itemCount: Int { gridModel.itemCount }
    /// Columns at the last layout.
    package var columnCount: Int { gridModel.perRow }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        refit(gridModel, kind: "LazyVGrid", across: (width ?? proposal.width) - padding.horizontal)
        return super.sizeThatFits(proposal)
    }

    public override func layoutChildren() {
        refit(gridModel, kind: "LazyVGrid", across: frame.width - padding.horizontal)
        super.layoutChildren()
    }
}

/// A grid that scrolls horizontally and builds only the columns on screen: `rows` size its rows,
/// and items fill each column from the top. The horizontal twin of `LazyVGrid`.
public final class LazyHGrid: LazyStack {
    let gridModel: GridModel

    /// `count` items in columns of `rows`, `spacing` points apart both ways; `item(i)` builds
    /// item `i` when its column is about to show.
    public init(
        id: String? = nil, rows: [GridItem], count: Int, spacing: Double = 8, padding: EdgeInsets = .zero,
        item: @escaping (Int) -> View
    ) {
        let model = GridModel(items: rows, spacing: spacing, sectionCounts: [count]) { item($1) }
        gridModel = model
        super.init(.horizontal, id: id, count: model.rowCounts[0], spacing: model.spacing, padding: padding) { column in
            GridRow(model: model, section: 0, row: column, vertical: false)
        }
    }

    /// How many items it holds.
    public var itemCount: Int { gridModel.itemCount }

    public override func sizeThatFits(_ proposal: Size) -> Size {
        refit(gridModel, kind: "LazyHGrid", across: (height ?? proposal.height) - padding.vertical)
        return super.sizeThatFits(proposal)
    }

    public override func layoutChildren() {
        refit(gridModel, kind: "LazyHGrid", across: frame.height - padding.vertical)
        super.layoutChildren()
    }
}

extension LazyStack {
    /// Sizes a grid's tracks for `length` points across, rebuilding its rows when the number of
    /// items per row changed, and says the grid's problems once it has a window to say them in.
    func refit(_ model: GridModel, kind: String, across length: Double) {
        if !model.problems.isEmpty, let host {
            for p in model.problems { host.warn("\(logTitle(kind)) \(p)") }
            model.problems = []
        }
        guard model.resolve(for: length, textScale: host?.textScale ?? 1) else { return }
        if let source = sectionSource {
            source.resize(model.sectionCounts)  // the same items in rows of the new width
            reloadData(count: source.plan.count)
        } else {
            reloadData(count: model.rowCounts[0])
        }
    }
}
