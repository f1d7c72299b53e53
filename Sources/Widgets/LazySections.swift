@_spi(Hooks) import ViewCore
import Raster
import Geometry

/// Where a sectioned lazy stack's rows fall: each section is one header row followed by its
/// body rows, all in one run of rows.
package struct SectionPlan: Equatable {
    /// The row of each section's header.
    package private(set) var headerRows: [Int] = []
    /// How many rows in all.
    package private(set) var count = 0

    /// Sections with these numbers of body rows (negative counts as 0).
    package init(bodyRows: [Int]) {
        headerRows.reserveCapacity(bodyRows.count)
        for n in bodyRows {
            headerRows.append(count)
            count += 1 + max(0, n)
        }
    }

    /// The section holding `row` (clamped to the sections).
    package func section(ofRow row: Int) -> Int {
        var lo = 0, hi = headerRows.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if headerRows[mid] <= row { lo = mid } else { hi = mid - 1 }
        }
        return max(0, lo)
    }

    /// Which section `row` is in, and which of its body rows it is (nil: its header).
    package func locate(_ row: Int) -> (section: Int, body: Int?) {
        let s = section(ofRow: row)
        let n = row - headerRows[s]
        return (s, n == 0 ? nil : n - 1)
    }
}

/// What a sectioned lazy stack builds its rows from; the plan changes with the data (and, in a
/// grid, with the number of columns).
package final class SectionSource {
    package private(set) var plan: SectionPlan
    let pinsHeaders: Bool
    private let header: (Int) -> View
    private let body: (Int, Int) -> View
    /// The body rows of sections of these sizes (a grid also keeps the sizes, to fill its rows).
    private let bodyRows: ([Int]) -> [Int]

    /// Sections of `sizes` rows (items, counted into rows by `bodyRows` in a grid).
    package init(
        sizes: [Int], pinsHeaders: Bool, header: @escaping (Int) -> View, bodyRows: @escaping ([Int]) -> [Int] = { $0 },
        body: @escaping (Int, Int) -> View
    ) {
        plan = SectionPlan(bodyRows: bodyRows(sizes))
        self.pinsHeaders = pinsHeaders
        self.header = header
        self.bodyRows = bodyRows
        self.body = body
    }

    /// New sizes for the sections.
    func resize(_ sizes: [Int]) { plan = SectionPlan(bodyRows: bodyRows(sizes)) }

    func makeHeader(_ section: Int) -> View { SectionHeaderRow(header(section)) }

    func makeRow(_ row: Int) -> View {
        let (section, n) = plan.locate(row)
        return n.map { body(section, $0) } ?? makeHeader(section)
    }
}

/// A section's header as a lazy stack shows it: the app's view over the colour behind the list,
/// so rows scrolling under a pinned header never show through it. Said as a heading.
final class SectionHeaderRow: View {
    init(_ content: View) {
        super.init()
        add(content)
        if content.accessibility.role == nil { content.accessibility.role = .heading }
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        guard let content = children.first else { return .zero }
        return content.constrained(content.sizeThatFits(proposal))
    }

    override func draw(in context: inout DrawContext) {
        // The nearest fill behind the list, as the window paints it.
        var color = Color.background
        var node = parent
        while let v = node {
            if let fill = v.fill, fill.alpha == 255 { color = context.fillColor(fill); break }
            node = v.parent
        }
        context.fill(Rect(origin: .zero, size: frame.size), cornerRadius: 0, color: color)
    }
}

extension LazyStack {
    /// Replaces every section: `sections[i]` rows (items, in a grid) in section `i`; the row
    /// being read keeps its place. Does nothing to a stack made without sections.
    public func reloadData(sections: [Int]) {
        guard let source = sectionSource else { return }
        source.resize(sections)
        reloadData(count: source.plan.count)
    }
}

/// A vertical lazy stack in sections, each with a header that stays pinned at the top while its
/// rows scroll under it (unless `pinnedHeaders` is false), pushed away by the next one:
///
/// ```swift
/// LazyVStack(id: "contacts", sections: letters.map { byLetter[$0]!.count }, header: { s in
///     Label(letters[s], size: 15, padding: EdgeInsets(horizontal: 16, vertical: 4)).bold()
/// }) { s, i in
///     ContactRow(byLetter[letters[s]]![i])
/// }
/// ```
///
/// Headers are drawn over the colour behind the list (the nearest fill, or the window's), and
/// read by the screen reader as headings in their place in the list.
public func LazyVStack(
    id: String? = nil, sections: [Int], spacing: Double = 0, padding: EdgeInsets = .zero, pinnedHeaders: Bool = true,
    header: @escaping (Int) -> View, row: @escaping (_ section: Int, _ row: Int) -> View
) -> LazyStack {
    let source = SectionSource(sizes: sections, pinsHeaders: pinnedHeaders, header: header, body: row)
    return LazyStack(.vertical, id: id, sections: source, spacing: spacing, padding: padding)
}
