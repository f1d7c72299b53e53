import Controls
import Geometry
import Raster
import Scrolling
import UI

/// The gallery's containers: a navigation stack, a grid in sections with pinned headers, and
/// pages with a page control (the tab view is the gallery itself; scroll views hold every screen).
extension GalleryApp {
    static let places = ["Harbour", "Old town", "Museum", "Park"]

    /// A list of places in a navigation stack; a row pushes the place's screen, whose back
    /// button pops it.
    static func navigation() -> View {
        let rows = Stack(.vertical, id: "nav-rows", spacing: 8, padding: EdgeInsets(16), alignment: .fill)
        let stack = NavigationStack(id: "nav", root: ScrollView(id: "nav-list", content: rows), title: "Places")
        for (i, place) in places.enumerated() {
            rows.add(
                Button(place, id: "nav-row-\(i)", icon: Icon("place"), style: .plain) { [unowned stack] in
                    stack.push(placeScreen(i), title: place)
                })
        }
        return stack
    }

    static func placeScreen(_ i: Int) -> View {
        VStack(id: "place-\(i)", spacing: 12, padding: EdgeInsets(20)) {
            Box(fill: Color(rgb: [0x355070, 0x6D597A, 0xB56576, 0x2A9D8F][i % 4]), cornerRadius: 12, height: 120)
            Label("\(places[i]): a screen pushed on the stack. The back button, an edge swipe or Esc pops it.", size: 17)
        }
    }

    /// Four sections of tiles in a lazy grid, each section's name pinned at the top while its
    /// tiles scroll under it.
    static func grid() -> View {
        let sections = ["Red", "Green", "Blue", "Grey"]
        let hues: [UInt32] = [0xC0533A, 0x3E8E5B, 0x3E6D8E, 0x6B6B6B]
        let grid = LazyVGrid(
            id: "grid-items", columns: [GridItem(.adaptive(minimum: 140))], sections: [6, 6, 6, 6], spacing: 12,
            padding: EdgeInsets(12),
            header: { s in
                Label(sections[s], id: "grid-header-\(s)", size: 20, maxLines: 1).bold()
                    .padding(EdgeInsets(horizontal: 4, vertical: 6))
            }
        ) { s, i in
            VStack(id: "tile-\(s)-\(i)", spacing: 6, padding: EdgeInsets(8)) {
                Box(fill: Color(rgb: hues[s]), cornerRadius: 8, height: 56)
                Label("\(sections[s]) \(i + 1)", size: 15, maxLines: 1)
            }.background(.surface, cornerRadius: 10)
        }
        return ScrollView(id: "grid", content: grid)
    }

    /// Five pages that snap, with a page control over their bottom edge.
    static func pages() -> View {
        let strip = LazyHStack(id: "pages-strip", count: 5) { i in
            Overlay(
                id: "page-\(i)", alignment: .center,
                children: [
                    Box(fill: Color(rgb: [0x264653, 0x2A9D8F, 0x6D597A, 0x355070, 0xB56576][i])),
                    Label("Page \(i + 1)", size: 48, color: .white, alignment: .center, maxLines: 1),
                ])
        }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let scroll = ScrollView(id: "pages", axes: .horizontal, configuration: config, content: strip)
        scroll.sizesPagesToViewport = true
        let control = PageControl(id: "pages-control", scrollView: scroll, backgroundStyle: .prominent)
        return Overlay(
            id: "pages-screen", alignment: UnitPoint(x: 0.5, y: 1),
            inset: EdgeInsets(top: 0, leading: 40, bottom: 20, trailing: 40), children: [scroll, control])
    }
}
