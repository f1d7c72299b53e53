@_spi(Hooks) import ViewCore
import Geometry
import Scrolling

/// A stack that builds only the rows its scroll view shows, plus a small margin, so a list of a
/// million rows costs what its visible rows cost (SwiftUI's `LazyVStack`, Flutter's
/// `ListView.builder`).
///
/// Rows may differ in length. A row is measured when it is built and placed next to the row
/// beside it, so a row already on screen never moves when others are measured; rows not built
/// count as the average length measured so far, which changes only while the view is at rest
/// and its indicator hidden. Near the start, or when the rows above cannot fit where the
/// estimate put them, the built rows and the scroll offset move together (no visible jump).
///
/// Clamps, documented here once: a negative count is 0; a row's length that is negative or NaN
/// is 0, one above 100,000 points is 100,000; at most 1,000 rows are built at once (a list of
/// zero-length rows stops there instead of hanging); indices of data changes are clamped to the list.
/// In the id-based variant an id that repeats is found at its first index.
public class LazyStack: View, LazyContent {
    package let axis: Stack.Axis
    package var spacing: Double { didSet { setNeedsLayout() } }
    /// Points beyond the viewport, on each side, where rows are built before they show.
    package var margin = 100.0
    package var itemExtent: Double? { didSet { if itemExtent != oldValue { invalidateMeasurements() } } }
    /// The number of rows (never negative); the data-change methods and `reloadData` update it.
    public private(set) var count: Int
    /// The index of the first built row; the children are the built rows, in order (then the
    /// pinned section header, if one shows).
    package private(set) var firstBuiltIndex = 0
    /// Rows the builder made, counting rebuilds (for tests and statistics).
    package private(set) var rowsBuilt = 0
    /// Rows released since the start.
    package private(set) var rowsReleased = 0

    private let makeRow: (Int) -> View
    private var identifiers: [String]?
    private var indexByID: [String: Int] = [:]
    private var measuredTotal = 0.0, measuredCount = 0
    /// The length counted for a row not built.
    private var estimate: Double?
    /// Where row `firstBuiltIndex` starts while no row is built (after a jump or a data
    /// change); nil: where the estimate puts it.
    private var detachedStart: Double?
    /// A move of the built rows not yet reported to the scroll view.
    private var pendingShift = 0.0
    /// The visible part at the last `prepare`, to find the row being read.
    private var lastVisible: Rect?
    private var measuredCross: Double?
    /// The sections' rows and builders, in a sectioned stack.
    package var sectionSource: SectionSource?
    /// The header pinned at the start of the viewport (the last child, over the rows), its
    /// section, and its length along the axis (measured once, again at each layout; nil: not yet).
    private var pinned: (section: Int, view: View, length: Double?)?
    /// The built rows: every child but the pinned header.
    private var rows: ArraySlice<View> { pinned == nil ? children[...] : children.dropLast() }

    static let defaultEstimate = 44.0
    static let maximumExtent = 100_000.0
    static let maximumBuiltRows = 1000

    /// `count` rows; `row(i)` builds row `i` when it is about to show.
    public init(
        _ axis: Stack.Axis, id: String? = nil, count: Int, spacing: Double = 0, padding: EdgeInsets = .zero,
        row: @escaping (Int) -> View
    ) {
        self.axis = axis
        self.count = max(0, count)
        self.spacing = spacing.isFinite ? max(0, spacing) : 0
        makeRow = row
        super.init(id: id)
        self.padding = padding
    }

    /// One row per identifier; `row(id)` builds it. Data changes and `scrollTo(id:)` work by
    /// id, for rows never built too.
    public convenience init(
        _ axis: Stack.Axis, id: String? = nil, ids: [String], spacing: Double = 0,
        padding: EdgeInsets = .zero, row: @escaping (String) -> View
    ) {
        let box = IdentifierBox()
        self.init(axis, id: id, count: ids.count, spacing: spacing, padding: padding) { row(box.ids[$0]) }
        box.ids = ids
        identifierBox = box
        reindex()
    }

    /// A header row and body rows per section, from `source`.
    package init(_ axis: Stack.Axis, id: String?, sections source: SectionSource, spacing: Double, padding: EdgeInsets) {
        self.axis = axis
        count = source.plan.count
        self.spacing = spacing.isFinite ? max(0, spacing) : 0
        makeRow = { source.makeRow($0) }
        sectionSource = source
        super.init(id: id)
        self.padding = padding
    }

    /// Shares the identifiers with the row builder, which is made before `self` exists.
    private final class IdentifierBox { var ids: [String] = [] }
    private var identifierBox: IdentifierBox?
    /// The identifiers of the id-based variant, in order.
    public var ids: [String]? { identifierBox?.ids }

    private func reindex() {
        indexByID = [:]
        guard let ids else { return }
        indexByID.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() where indexByID[id] == nil { indexByID[id] = i }
    }

    /// The index of the row with `id` (id-based variant, or a built row of either variant).
    public func index(ofRowWithID id: String) -> Int? {
        if let i = indexByID[id] { return i }
        for (n, c) in rows.enumerated() where c.view(withID: id) != nil { return firstBuiltIndex + n }
        return nil
    }

    package func isBuilt(_ index: Int) -> Bool { builtRow(at: index) != nil }

    /// The built row at `index`, if it is built.
    package func builtRow(at index: Int) -> View? {
        let n = index - firstBuiltIndex
        return rows.indices.contains(n) ? rows[n] : nil
    }

    // MARK: Geometry along the axis

    private var main: Scrolling.Axis { axis == .vertical ? .vertical : .horizontal }
    private var leading: Double { axis == .vertical ? padding.top : padding.leading }
    private var trailing: Double { axis == .vertical ? padding.bottom : padding.trailing }
    private var crossPadding: Double { axis == .vertical ? padding.horizontal : padding.vertical }
    private var stride: Double { max(1e-3, (itemExtent ?? estimate ?? Self.defaultEstimate) + spacing) }
    // Right to left, a row runs from the right: positions along the axis are counted from the
    // right edge (the content's width), so everything below is the left-to-right logic.
    private func start(_ v: View) -> Double {
        axis == .vertical ? v.frame.minY : runsFromRight ? mirrorWidth - v.frame.maxX : v.frame.minX
    }
    private func end(_ v: View) -> Double {
        axis == .vertical ? v.frame.maxY : runsFromRight ? mirrorWidth - v.frame.minX : v.frame.maxX
    }
    /// Laid out right to left along a horizontal axis (as of the last layout or preparation).
    private var runsFromRight = false
    /// The width the built rows were placed from the right of (the content's, unless a scroll
    /// view has just given it another).
    private var mirrorWidth = 0.0
    private func updateDirection() { runsFromRight = axis == .horizontal && isRightToLeft }
    private var lastBuiltIndex: Int { firstBuiltIndex + rows.count - 1 }

    /// Where row `index` starts: exact when built, else counted from the nearest built row.
    func start(ofRow index: Int) -> Double {
        guard let first = rows.first, let last = rows.last else {
            let a = detachedStart ?? leading + Double(firstBuiltIndex) * stride
            return a + Double(index - firstBuiltIndex) * stride
        }
        if index < firstBuiltIndex { return start(first) - Double(firstBuiltIndex - index) * stride }
        if index <= lastBuiltIndex { return start(rows[index - firstBuiltIndex]) }
        return end(last) + spacing + Double(index - lastBuiltIndex - 1) * stride
    }

    /// The content's length along the axis.
    var contentLength: Double {
        count == 0 ? leading + trailing : start(ofRow: count) - spacing + trailing
    }

    /// The row at `position` along the axis (clamped to the list).
    package func rowIndex(at position: Double) -> Int {
        let raw: Double
        if let first = rows.first, let last = rows.last {
            if position < start(first) {
                raw = Double(firstBuiltIndex) - ((start(first) - position) / stride).rounded(.up)
            } else if position < end(last) + spacing {
                for (n, c) in rows.enumerated() where end(c) + spacing > position { return firstBuiltIndex + n }
                raw = Double(lastBuiltIndex)
            } else {
                raw = Double(lastBuiltIndex + 1) + ((position - end(last) - spacing) / stride).rounded(.down)
            }
        } else {
            raw = Double(firstBuiltIndex) + ((position - start(ofRow: firstBuiltIndex)) / stride).rounded(.down)
        }
        guard raw.isFinite else { return 0 }
        return Int(max(0, min(Double(count - 1), raw)))
    }

    // MARK: Building and releasing

    private func extent(of row: View) -> Double {
        let cross = (axis == .vertical ? frame.width : frame.height) - crossPadding
        let measured: Double
        if let itemExtent {
            measured = itemExtent
        } else if axis == .vertical {
            measured = row.sizeThatFits(Size(width: row.width ?? cross, height: .infinity)).height
        } else {
            measured = row.sizeThatFits(Size(width: .infinity, height: row.height ?? cross)).width
        }
        guard measured.isFinite, measured > 0 else { return 0 }
        return min(measured, Self.maximumExtent)
    }

    /// Builds row `index`, attached as child `slot`, starting at `position` (or ending there
    /// when `endingAt`).
    private func build(_ index: Int, slot: Int, at position: Double, endingAt: Bool = false) {
        let row = makeRow(index)
        rowsBuilt += 1
        attach(row, at: slot)
        let length = extent(of: row)
        if itemExtent == nil { measuredTotal += length; measuredCount += 1 }
        place(row, at: endingAt ? position - length : position, length: length)
        row.layoutChildren()
    }

    private func place(_ row: View, at position: Double, length: Double) {
        if axis == .vertical {
            row.frame = Rect(x: padding.leading, y: position, width: max(0, frame.width - padding.horizontal), height: length)
        } else {
            let x = runsFromRight ? mirrorWidth - position - length : position
            row.frame = Rect(x: x, y: padding.top, width: length, height: max(0, frame.height - padding.vertical))
        }
    }

    private func releaseFirst() { detachChild(at: 0); firstBuiltIndex += 1; rowsReleased += 1 }
    private func releaseLast() { detachChild(at: rows.count - 1); rowsReleased += 1 }

    /// Releases every row; row `index` will be built starting at `position`.
    private func releaseAll(anchoringAt index: Int, start position: Double) {
        rowsReleased += rows.count
        while !rows.isEmpty { detachChild(at: rows.count - 1) }
        firstBuiltIndex = max(0, min(count, index))
        detachedStart = position
    }

    private func move(by delta: Double) {
        guard delta != 0 else { return }
        let dx = runsFromRight ? -delta : delta
        for c in rows {
            c.frame = axis == .vertical ? c.frame.offsetBy(dx: 0, dy: delta) : c.frame.offsetBy(dx: dx, dy: 0)
        }
        detachedStart = detachedStart.map { $0 + delta }
    }

    package func prepare(visible: Rect, settled: Bool) -> Point {
        lastVisible = visible
        // The visible part along the axis, counted as positions are (from the right, right to left).
        let visibleStart = start(of: visible)
        let visibleEnd = axis == .vertical ? visible.maxY : runsFromRight ? mirrorWidth - visible.minX : visible.maxX
        let lo = visibleStart - margin, hi = visibleEnd + margin
        var shift = pendingShift
        pendingShift = 0
        if count == 0 {
            if !rows.isEmpty { releaseAll(anchoringAt: 0, start: leading) }
        } else {
            if let first = rows.first, let last = rows.last, end(last) < lo || start(first) > hi {
                // A jump (a program scroll, a fast fling): start over where the estimate puts it.
                let k = rowIndex(at: visibleStart)
                releaseAll(anchoringAt: k, start: start(ofRow: k))
            }
            while let first = rows.first, end(first) < lo, rows.count > 1 { releaseFirst() }
            while let last = rows.last, start(last) > hi, rows.count > 1 { releaseLast() }
            var budget = Self.maximumBuiltRows - rows.count
            if rows.isEmpty {
                firstBuiltIndex = min(firstBuiltIndex, count - 1)
                build(firstBuiltIndex, slot: 0, at: start(ofRow: firstBuiltIndex))
                budget -= 1
            }
            while lastBuiltIndex < count - 1, let last = rows.last, end(last) < hi, budget > 0 {
                build(lastBuiltIndex + 1, slot: rows.count, at: end(last) + spacing)
                budget -= 1
            }
            while firstBuiltIndex > 0, let first = rows.first, start(first) > lo, budget > 0 {
                firstBuiltIndex -= 1
                build(firstBuiltIndex, slot: 0, at: start(first) - spacing, endingAt: true)
                budget -= 1
            }
            // The start of the list is where the padding ends; rows above the first built one
            // need at least their spacing.
            if let first = rows.first {
                let s = start(first)
                if firstBuiltIndex == 0, s != leading {
                    shift += leading - s; move(by: leading - s)
                } else if firstBuiltIndex > 0, s < leading + Double(firstBuiltIndex) * spacing {
                    let target = leading + Double(firstBuiltIndex) * stride
                    shift += target - s; move(by: target - s)
                }
                detachedStart = nil
            }
        }
        if settled, count > 0, let first = rows.first {
            if itemExtent == nil, measuredCount > 0 {
                let average = measuredTotal / Double(measuredCount)
                if estimate.map({ abs($0 - average) > 1e-9 }) ?? true { estimate = average }
            }
            // At rest, with no indicator showing, the built rows move to where the estimate puts
            // them (and the offset with them): positions of rows far away stay consistent.
            let expected = leading + Double(firstBuiltIndex) * stride
            if abs(start(first) - expected) > 0.5 { shift += expected - start(first); move(by: expected - start(first)) }
        }
        resizeToContent()
        pinHeader(visibleStart: visibleStart + shift)  // the offset moves by `shift`, with the rows
        return axis == .vertical ? Point(x: 0, y: shift) : Point(x: shift, y: 0)
    }

    private func start(of visible: Rect) -> Double {
        axis == .vertical ? visible.minY : runsFromRight ? mirrorWidth - visible.maxX : visible.minX
    }

    // MARK: Pinned section headers

    /// Views drawn over the rows at a fixed place in the viewport (the pinned header).
    package var pinnedViews: [View] { pinned.map { [$0.view] } ?? [] }

    /// Shows the header of the section at the start of the viewport there, over its rows,
    /// until the next section's header pushes it out (SwiftUI's `pinnedViews`, UITableView's
    /// plain style). The header row in the list stays where it is, for the screen reader.
    private func pinHeader(visibleStart: Double) {
        guard let source = sectionSource, source.pinsHeaders, count > 0, visibleStart > leading else { return unpin() }
        let section = source.plan.section(ofRow: rowIndex(at: visibleStart))
        guard visibleStart > start(ofRow: source.plan.headerRows[section]) else { return unpin() }
        if pinned?.section != section {
            unpin()
            let view = source.makeHeader(section)
            view.accessibility.hidden = true
            attach(view, at: children.count)
            pinned = (section, view, nil)
        }
        guard let view = pinned?.view else { return }
        let length = pinned?.length ?? extent(of: view)
        pinned?.length = length
        let next = section + 1
        let sectionEnd =
            next < source.plan.headerRows.count ? start(ofRow: source.plan.headerRows[next]) - spacing : contentLength - trailing
        let before = view.frame.size
        place(view, at: min(visibleStart, sectionEnd - length), length: length)
        if view.frame.size != before { view.layoutChildren() }
    }

    private func unpin() {
        guard pinned != nil else { return }
        detachChild(at: children.count - 1)
        pinned = nil
    }

    private func resizeToContent() {
        if axis == .vertical { frame.size.height = contentLength; return }
        let length = contentLength
        frame.size.width = length
        rebaseMirroring()
    }

    /// Right to left, moves the built rows so that they keep their distance from the right edge
    /// of the content's width now.
    private func rebaseMirroring() {
        let grown = frame.width - mirrorWidth
        mirrorWidth = frame.width
        if runsFromRight, grown != 0 { for c in rows { c.frame.origin.x += grown } }
    }

    // MARK: Layout

    public override func sizeThatFits(_ proposal: Size) -> Size {
        let length = contentLength
        if axis == .vertical {
            return Size(width: width ?? (proposal.width.isFinite ? proposal.width : 0), height: length)
        }
        return Size(width: length, height: height ?? (proposal.height.isFinite ? proposal.height : 0))
    }

    /// Measures the built rows again at the new cross size; the first keeps its place.
    public override func layoutChildren() {
        let cross = axis == .vertical ? frame.width : frame.height
        // At a new width every measurement so far is stale: the rows built now are the sample.
        let remeasured = measuredCross != cross
        if remeasured { measuredCross = cross; measuredTotal = 0; measuredCount = 0 }
        // Where the first row starts, in the direction it was placed in; then the direction now.
        var position = rows.first.map(start) ?? 0
        updateDirection()
        rebaseMirroring()
        for row in rows {
            let length = extent(of: row)
            if itemExtent == nil, remeasured { measuredTotal += length; measuredCount += 1 }
            place(row, at: position, length: length)
            row.layoutChildren()
            position += length + spacing
        }
        resizeToContent()
        pinned?.length = nil  // a new width, or text size, may change its height
        if let lastVisible { pinHeader(visibleStart: start(of: lastVisible)) }
    }

    private func invalidateMeasurements() {
        measuredTotal = 0; measuredCount = 0; estimate = nil
        setNeedsLayout()
    }

    @_spi(Hooks) override public var backdrop: Backdrop { .none }

    // MARK: Finding rows

    package func frame(ofItemAt index: Int) -> Rect? {
        guard index >= 0, index < count else { return nil }
        if let row = builtRow(at: index) { return row.frame }
        let s = start(ofRow: index), length = max(0, stride - spacing)
        let x = runsFromRight ? mirrorWidth - s - length : s
        return axis == .vertical
            ? Rect(x: padding.leading, y: s, width: max(0, frame.width - padding.horizontal), height: length)
            : Rect(x: x, y: padding.top, width: length, height: max(0, frame.height - padding.vertical))
    }

    package func frame(ofItemWithID id: String) -> Rect? {
        index(ofRowWithID: id).flatMap { frame(ofItemAt: $0) }
    }

    package func focusableItem(after view: View, step: Int) -> View? {
        var v: View? = view
        while let c = v, c.parent !== self { v = c.parent }
        guard let row = v, let slot = rows.firstIndex(where: { $0 === row }) else { return nil }
        var index = firstBuiltIndex + slot
        while true {
            index += step
            guard index >= 0, index < count else { return nil }
            if builtRow(at: index) == nil {
                // Built next to the block, so the rows stay contiguous.
                guard index == lastBuiltIndex + 1 || index == firstBuiltIndex - 1,
                    let edge = index > lastBuiltIndex ? rows.last : rows.first
                else { return nil }
                if index > lastBuiltIndex {
                    build(index, slot: rows.count, at: end(edge) + spacing)
                } else {
                    firstBuiltIndex -= 1; build(index, slot: 0, at: start(edge) - spacing, endingAt: true)
                }
            }
            if let target = builtRow(at: index).flatMap(Self.firstFocusable) { return target }
        }
    }

    static func firstFocusable(in v: View) -> View? {
        guard !v.isHidden else { return nil }
        if v.isFocusable { return v }
        for c in v.children { if let f = firstFocusable(in: c) { return f } }
        return nil
    }

    // MARK: Data changes (the row being read keeps its place on screen)

    /// Inserts `n` rows at `index` (clamped); in the id-based variant use `insert(ids:at:)`.
    public func insertRows(at index: Int, count n: Int = 1) {
        guard identifierBox == nil else { return }
        applyChange(at: index, removing: 0, inserting: max(0, n))
    }

    /// Removes `n` rows from `index` (clamped to the list).
    public func removeRows(at index: Int, count n: Int = 1) {
        if let box = identifierBox {
            let lo = max(0, min(count, index)), hi = max(lo, min(count, lo + max(0, n)))
            box.ids.removeSubrange(lo..<hi)
            reindex()
        }
        applyChange(at: index, removing: max(0, n), inserting: 0)
    }

    /// Builds rows `index..<index+n` again (their data changed).
    public func reloadRows(at index: Int, count n: Int = 1) {
        applyChange(at: index, removing: max(0, n), inserting: max(0, n), reload: true)
    }

    /// Inserts rows for `ids` at `index` (id-based variant).
    public func insert(ids new: [String], at index: Int) {
        guard let box = identifierBox else { return }
        let at = max(0, min(count, index))
        box.ids.insert(contentsOf: new, at: at)
        reindex()
        applyChange(at: at, removing: 0, inserting: new.count)
    }

    /// Removes the rows with these ids (id-based variant); unknown ids are ignored.
    public func remove(ids gone: [String]) {
        guard identifierBox != nil else { return }
        for i in gone.compactMap({ indexByID[$0] }).sorted(by: >) { removeRows(at: i) }
    }

    /// Builds the rows with these ids again.
    public func reload(ids changed: [String]) {
        for i in changed.compactMap({ indexByID[$0] }) { reloadRows(at: i) }
    }

    /// Replaces every row: `count` rows (or these ids), the row being read kept by index.
    public func reloadData(count newCount: Int? = nil, ids newIDs: [String]? = nil) {
        if let box = identifierBox, let newIDs {
            box.ids = newIDs; reindex(); count = newIDs.count
        } else if identifierBox == nil, let newCount {
            count = max(0, newCount)
        }
        let reading = readingRow()
        let k = max(0, min(count - 1, reading.index))
        releaseAll(anchoringAt: k, start: reading.start)
        changed()
    }

    /// The row the reader is on: the first built row still showing, and where it starts.
    private func readingRow() -> (index: Int, start: Double) {
        let top = lastVisible.map { axis == .vertical ? $0.minY : $0.minX } ?? 0
        for (n, c) in rows.enumerated() where end(c) > top { return (firstBuiltIndex + n, start(c)) }
        let k = rowIndex(at: top)
        return (k, start(ofRow: k))
    }

    private func applyChange(at index: Int, removing: Int, inserting: Int, reload: Bool = false) {
        let at = max(0, min(count, index))
        let removed = min(removing, count - at)
        let reading = readingRow()
        // What the change does above the row being read: it moves by that much, and the
        // scroll offset with it.
        var delta = 0.0
        var newReading = reading.index
        if reading.index >= at + removed {
            newReading += inserting - removed
            if !reload {
                var removedLength = 0.0
                for i in at..<(at + removed) {
                    removedLength += (builtRow(at: i).map { end($0) - start($0) } ?? (stride - spacing)) + spacing
                }
                delta = Double(inserting) * stride - removedLength
            }
        } else if reading.index >= at {
            newReading = at  // the row being read went: the first row after the change takes its place
        }
        count += inserting - removed
        if count == 0 { releaseAll(anchoringAt: 0, start: leading); changed(); return }
        pendingShift += delta
        // The scroll view moves by `delta` at the next prepare: a second change before then
        // finds the row being read where it will be.
        lastVisible = lastVisible.map { axis == .vertical ? $0.offsetBy(dx: 0, dy: delta) : $0.offsetBy(dx: delta, dy: 0) }
        releaseAll(anchoringAt: max(0, min(count - 1, newReading)), start: reading.start + delta)
        changed()
    }

    private func changed() {
        // The sections may have changed: the header is pinned again at the next frame.
        unpin()
        resizeToContent()
        enclosingScrollingContainer?.setNeedsDisplay()
        enclosingScrollingContainer?.host?.scheduleFrame()
    }
}

/// A vertical lazy stack: `LazyVStack(count: 1_000_000, spacing: 1) { i in Label("Row \(i)") }`.
public func LazyVStack(
    id: String? = nil, count: Int, spacing: Double = 0, padding: EdgeInsets = .zero,
    row: @escaping (Int) -> View
) -> LazyStack {
    LazyStack(.vertical, id: id, count: count, spacing: spacing, padding: padding, row: row)
}

/// A vertical lazy stack with one row per identifier.
public func LazyVStack(
    id: String? = nil, ids: [String], spacing: Double = 0, padding: EdgeInsets = .zero,
    row: @escaping (String) -> View
) -> LazyStack {
    LazyStack(.vertical, id: id, ids: ids, spacing: spacing, padding: padding, row: row)
}

/// A horizontal lazy stack (a long carousel, a strip of pages).
public func LazyHStack(
    id: String? = nil, count: Int, spacing: Double = 0, padding: EdgeInsets = .zero,
    row: @escaping (Int) -> View
) -> LazyStack {
    LazyStack(.horizontal, id: id, count: count, spacing: spacing, padding: padding, row: row)
}

/// A horizontal lazy stack with one item per identifier.
public func LazyHStack(
    id: String? = nil, ids: [String], spacing: Double = 0, padding: EdgeInsets = .zero,
    row: @escaping (String) -> View
) -> LazyStack {
    LazyStack(.horizontal, id: id, ids: ids, spacing: spacing, padding: padding, row: row)
}
