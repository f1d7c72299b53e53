@_spi(Hooks) import ViewCore
import AppContract
import Controls
import Geometry
import Localization
import ImageCodecs
import Raster
import Scrolling
import Text
import UI

/// The demo kiosk app, which uses all of Glide: a sidebar of screens and, for each, what Glide
/// does: a feed of cards with a nested paged photo carousel, a zoomable photo, long articles in
/// English and Japanese that page with the keyboard, and a screen of many pages with a page
/// control. Content comes from a manifest; what cannot be loaded is shown as such and reported.
package final class CatalogApp {
    package let window: Window
    /// Problems found while loading content (missing or corrupt images); the app shows the rest.
    package internal(set) var warnings: [String] = []
    package private(set) var selectedScreen = 0
    var screens: [View] = []
    var tabs: [Stack] = []
    /// How many screens (tabs) the catalog has.
    package var tabCount: Int { tabs.count }
    var tabLabels: [Label] = []
    var tabSubtitles: [Label] = []
    let root = Stack(.horizontal, id: "catalog", alignment: .fill)
    // The tabs' trailing margin is inside the scroll view: its indicator runs down the margin,
    // not over the selected tab's edge.
    let sidebar = Stack(.vertical, id: "sidebar", spacing: 6, padding: EdgeInsets(top: 28, leading: 16, bottom: 16, trailing: 0))
    let divider = Box(fill: CatalogApp.separator)
    var sidebarHeader: [View] = []
    let sidebarTabs = Stack(.vertical, id: "sidebar-tabs", spacing: 6, padding: EdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 16))
    lazy var sidebarScroll = ScrollView(id: "sidebar-scroll", axes: .vertical, content: sidebarTabs)
    /// Holds the screens and, on narrow or portrait panels, their tab bar; on wide ones the
    /// sidebar switches them.
    private(set) var screenArea: TabView!
    /// True when the screen is narrow or portrait: tabs along the bottom instead of a sidebar.
    package private(set) var isCompact = false
    let manifestDirectory: String
    package let about = AboutModel()

    // The theme's roles: the catalog follows the window's light or dark scheme.
    static let ink = Color.primaryText, secondaryInk = Color.messageText, tertiaryInk = Color.secondaryText
    static let separator = Color.separator, accent = Color.accent
    /// Dark on the pastel pages whatever the scheme: 4.5:1 and more.
    static let pageInk = Color(rgb: 0x1C1C1E)
    /// The border of a card marked by a long press.
    static let marked = Color(rgb: 0xFF9F0A)

    package init(
        manifest: Manifest, manifestDirectory: String, width: Int, height: Int, scaleFactor: Double,
        typography: Typography
    ) {
        self.manifestDirectory = manifestDirectory
        let adaptive = Adaptive(id: "catalog-layout", content: root)
        let layers = manifest.attract.map { _ in Self.layers(over: adaptive) }
        window = Window(width: width, height: height, scaleFactor: scaleFactor, typography: typography, root: layers ?? adaptive)
        window.images.reducingDecoder = { try Image.read(path: $0, halvings: $1) }
        loadStrings(manifest)
        sidebar.width = 248
        sidebar.fill = .surface
        sidebarHeader = makeSidebarHeader(manifest)
        var bar: [Tab] = []
        func addTab(id: String, title: LocalizedStringKey, subtitle: LocalizedStringKey?, icon: Icon, screen view: View) {
            let i = screens.count
            let tab = Stack(.vertical, id: "tab-\(id)", spacing: 2, padding: EdgeInsets(horizontal: 14, vertical: 10), alignment: .fill)
            tab.cornerRadius = 10
            let titleLabel = Label(title, size: 17, color: Self.ink)
            tab.add(titleLabel)
            let subtitleLabel = Label(subtitle ?? "", size: 13, color: Self.tertiaryInk)
            subtitleLabel.isHidden = subtitle == nil
            tab.add(subtitleLabel)
            tab.isFocusable = true
            tab.onTap = { [weak self] in withAnimation(Self.screenChange) { self?.select(i) } }
            tabs.append(tab); tabLabels.append(titleLabel); tabSubtitles.append(subtitleLabel)
            // The new screen fades in over the old, which goes at once: one layer a frame, not
            // two (a cross-fade of two whole screens doubled the cost of every switch).
            view.transition = .asymmetric(insertion: .opacity, removal: .identity)
            screens.append(view)
            bar.append(Tab(title, id: "tab-\(id)", icon: icon, content: view))
        }
        preloadPictures(of: manifest)
        for screen in manifest.screens {
            addTab(
                id: screen.id, title: LocalizedStringKey(screen.title), subtitle: screen.subtitle.map { LocalizedStringKey($0) },
                icon: Self.icon(for: screen.kind),
                screen: build(screen, index: screens.count))
        }
        // A screen the manifest got wrong is a tab that says what is wrong and where, so the
        // operator sees it on the kiosk; the other screens work.
        for (n, problem) in manifest.skippedScreens.enumerated() {
            warnings.append("\(problem)")
            addTab(
                id: "content-error-\(n)", title: "Content error", subtitle: LocalizedStringKey(verbatim: problem.place),
                icon: Icon("error"),
                screen: Self.errorView("This screen could not be loaded\n\n\(problem)"))
        }
        let selection = Binding(get: { [unowned self] in selectedScreen }, set: { [unowned self] in select($0) })
            .animation(Self.screenChange)
        screenArea = TabView(id: "screen-area", selection: selection, tabs: bar)
        adaptive.onResize = { [weak self] size in self?.arrange(compact: size.width < 720 || size.height > size.width) }
        arrange(compact: false)
        window.controller = self
        select(0)
        if let layers, let attract = manifest.attract { Self.addAttract(path(of: attract), to: layers, in: window) }
    }

    /// The title, what Glide is, the Dark switch (the scheme switches at run time: every screen
    /// redraws in the other theme, in place) and the About button.
    private func makeSidebarHeader(_ manifest: Manifest) -> [View] {
        let dark = Binding(
            get: { [unowned window] in window.colorScheme == .dark },
            set: { [unowned window] in window.colorScheme = $0 ? .dark : .light })
        return [
            Label(LocalizedStringKey(manifest.title), id: "app-title", size: 24, color: Self.ink),
            Label("Glide — touch scrolling for kiosks", size: 13, color: Self.tertiaryInk),
            Toggle("Dark", id: "dark-mode", isOn: dark),
            makeAbout(manifest: manifest),
            Spacer(length: 4),
        ]
    }

    /// Decodes every picture the screens name on all cores before they are built: each is then
    /// found decoded, or its error known, where a screen asks for it.
    private func preloadPictures(of manifest: Manifest) {
        let pictures = manifest.screens.flatMap { screen in
            [screen.image].compactMap { $0 } + (screen.carousel ?? []) + (screen.cards ?? []).compactMap(\.image)
        }
        window.images.preload(all: pictures.map(path(of:)), threads: BandRenderer.defaultThreads)
    }

    /// A sidebar beside the screens on wide landscape panels; on narrow or portrait ones the
    /// screens take the width and the tab view's bar runs along the bottom, titles only.
    func arrange(compact: Bool) {
        isCompact = compact
        screenArea.isBarHidden = !compact
        if compact {
            root.setChildren([screenArea.flexible()])
        } else {
            // Past 200 % text the sidebar widens (372 points at 300 %), so the title and the
            // About button keep their words whole ("Catal/og" at 248).
            sidebar.width = 248 + 124 * max(0, window.textScale - 2)
            // The title and the tabs scroll when they do not fit (large text, a short panel).
            sidebarTabs.setChildren(sidebarHeader + tabs)
            sidebar.setChildren([sidebarScroll])
            divider.width = 1
            root.setChildren([sidebar, divider, screenArea.flexible()])
        }
    }

    /// A screen that says what could not be loaded.
    package static func errorView(_ message: String) -> View {
        Overlay(
            id: "error", alignment: .center, inset: EdgeInsets(40),
            children: [
                Box(fill: .background),
                Label(message, id: "error-message", size: 20, color: ink, alignment: .center),
            ])
    }

    /// The tab bar's icon for a kind of screen.
    static func icon(for kind: Manifest.Screen.Kind) -> Icon {
        switch kind {
        case .feed: Icon("view_agenda")
        case .photo: Icon("photo")
        case .article: Icon("article")
        case .pages: Icon("auto_stories")
        case .search: Icon("search")
        }
    }

    /// How a tapped tab changes the screen: the new one fades in, and the sidebar's highlight
    /// moves with it.
    static let screenChange = Animation.easeOut(duration: 0.2)

    /// Shows screen `index` (the sidebar's tabs and the tab bar call this), at once unless
    /// inside `withAnimation`.
    package func select(_ index: Int) {
        guard screens.indices.contains(index) else { return }
        selectedScreen = index
        screenArea.select(index)
        for (i, tab) in tabs.enumerated() {
            tab.fill = i == index ? Self.accent : nil
            tabLabels[i].color = i == index ? .onAccent : Self.ink
            for case let l as Label in tab.children where l !== tabLabels[i] {
                l.color = i == index ? Color.onAccent.withOpacity(0.9) : Self.tertiaryInk
            }
        }
    }

    // MARK: Content

    /// Each path is decoded once while the screens are built, so a missing or corrupt picture
    /// is reported at once and every picture's size is known; the window's image store keeps
    /// the pixels within its budget and shares them by every place that shows the path.
    /// `label` is what the screen reader says for it; nil: it is decoration (a card's thumbnail,
    /// whose title says what it shows) and the screen reader passes it by.
    func imageView(
        _ relative: String?, place: String, id: String? = nil, label: String? = nil, width: Double? = nil, height: Double? = nil,
        cornerRadius: Double = 0, mode: ContentMode = .fill
    ) -> View {
        guard let relative else {
            return Box(id: id, fill: .placeholder, cornerRadius: cornerRadius, width: width, height: height)
        }
        let path = path(of: relative)
        switch window.images.preload(path) {
        case .success:
            let image = ImageView(source: path, id: id, contentMode: mode, width: width, height: height, cornerRadius: cornerRadius)
            return label.map { image.accessibilityLabel($0) } ?? image.accessibilityHidden()
        case let .failure(error):
            warnings.append("\(place): \(relative): \(error)")
        }
        // Shown, not hidden: an operator sees which picture is missing.
        let placeholder = Overlay(
            id: id, alignment: .center, inset: EdgeInsets(8),
            children: [
                Box(fill: .placeholder, cornerRadius: cornerRadius),
                Label("missing image\n\(relative)", size: 12, color: Self.tertiaryInk, alignment: .center, maxLines: 3),
            ])
        placeholder.width = width; placeholder.height = height
        return placeholder
    }

    func build(_ screen: Manifest.Screen, index: Int) -> View {
        switch screen.kind {
        case .feed: return buildFeed(screen, index: index)
        case .photo: return buildPhoto(screen, index: index)
        case .article: return buildArticle(screen)
        case .pages: return buildPages(screen)
        case .search: return buildSearch(screen)
        }
    }

    func header(_ title: String, _ subtitle: String?) -> View {
        let s = Stack(.vertical, spacing: 4)
        s.add(Label(LocalizedStringKey(title), size: 30, color: Self.ink))
        if let subtitle { s.add(Label(LocalizedStringKey(subtitle), size: 15, color: Self.tertiaryInk)) }
        return s
    }

    func buildFeed(_ screen: Manifest.Screen, index: Int) -> View {
        let list = Stack(
            .vertical, id: "\(screen.id)-list", spacing: 16, padding: EdgeInsets(top: 28, leading: 28, bottom: 28, trailing: 28))
        list.add(header(screen.title, screen.subtitle))
        var cards: [View] = []
        for (i, card) in (screen.cards ?? []).enumerated() {
            let place = "screens[\(index)].cards[\(i)]"
            let text = Stack(.vertical, spacing: 6)
            text.add(Label(LocalizedStringKey(card.title), size: 22, color: Self.ink))
            text.add(Label(LocalizedStringKey(card.text), size: 16, color: Self.secondaryInk, lineSpacing: 1.15))
            let row = Stack(.horizontal, spacing: 20, padding: EdgeInsets(18), alignment: .leading)
            let picture =
                card.video.map { videoView($0, poster: card.image, place: place + ".video", id: card.id + "-video") }
                ?? imageView(card.image, place: place + ".image", width: 132, height: 132, cornerRadius: 12)
            picture.width = 132
            picture.height = 132
            row.add(picture)
            row.add(text)
            row.background(.surface, cornerRadius: 14, border: Self.separator).shadow(radius: 6, y: 2)
            // Too narrow for a readable text column beside the picture: the picture goes above.
            // 200 points hold a card's words up to 200 % text; past it, a word would break
            // between its letters ("Evenin/g" at 300 %) unless the column grows with the text.
            let adaptive = Adaptive(id: card.id, content: row) { size in
                let column = 200 * max(1, (row.host?.textScale ?? 1) - 1)
                let stacked = size.width < 132 + 20 + 36 + column
                row.axis = stacked ? .vertical : .horizontal
                row.alignment = stacked ? .fill : .leading
                picture.width = stacked ? nil : 132
                picture.height = stacked ? 160 : 132
            }
            adaptive.isFocusable = true
            // A tap selects the card (accent border), a long press marks it (amber border); again
            // clears it. While a finger rests on the card it shows pressed.
            func toggle(_ row: Stack, _ colour: Color) {
                row.borderColor = row.borderColor == colour ? Self.separator : colour
                row.borderWidth = row.borderColor == colour ? 3 : 1
            }
            adaptive.onTap = { [weak row] in if let row { toggle(row, Self.accent) } }
            adaptive.onLongPress = { [weak row] in if let row { toggle(row, Self.marked) } }
            cards.append(adaptive)
        }
        if let photos = screen.carousel, !photos.isEmpty {
            let position = max(0, min(cards.count, screen.carouselPosition ?? 1))
            cards.insert(buildCarousel(screen, photos: photos, index: index), at: position)
        }
        for c in cards { list.add(c) }
        let scroll = ScrollView(id: screen.id, axes: .vertical, content: list)
        scroll.positionAnchor = nil
        return scroll
    }

    func buildCarousel(_ screen: Manifest.Screen, photos: [String], index: Int) -> View {
        let pageWidth = 560.0, spacing = 14.0, height = 340.0
        let strip = Stack(.horizontal, id: "\(screen.id)-carousel-strip", spacing: spacing, alignment: .fill)
        for (i, photo) in photos.enumerated() {
            strip.add(
                imageView(
                    photo, place: "screens[\(index)].carousel[\(i)]", id: "photo-\(i)", label: "Photo \(i + 1) of \(photos.count)",
                    width: pageWidth,
                    height: height, cornerRadius: 14))
        }
        // The page is narrower than the viewport, so the next photo peeks in.
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        config.pageSize = pageWidth + spacing
        let scroll = ScrollView(id: "\(screen.id)-carousel", axes: .horizontal, configuration: config, content: strip)
        scroll.height = height
        let control = PageControl(id: "\(screen.id)-carousel-pages", scrollView: scroll, backgroundStyle: .automatic)
        control.width = pageWidth
        let overlay = Overlay(
            id: "\(screen.id)-carousel-box", alignment: UnitPoint(x: 0, y: 1),
            inset: EdgeInsets(top: 0, leading: 0, bottom: 10, trailing: 0), children: [scroll, control])
        overlay.height = height
        let section = Stack(.vertical, spacing: 10)
        section.add(Label(screen.carouselTitle.map { LocalizedStringKey($0) } ?? "Photos", size: 20, color: Self.ink))
        section.add(overlay)
        // On a narrow column the pages shrink so the next photo still peeks in.
        return Adaptive(content: section) { size in
            let page = min(pageWidth, (size.width * 0.86).rounded())
            for photo in strip.children { photo.width = page }
            control.width = page
            scroll.configuration.pageSize = page + spacing
        }
    }

    func buildPhoto(_ screen: Manifest.Screen, index: Int) -> View {
        var config = ScrollConfiguration()
        config.minimumScale = screen.minScale ?? 1
        config.maximumScale = max(config.minimumScale, screen.maxScale ?? 4)
        config.doubleTapScale = min(config.maximumScale, screen.doubleTapScale ?? 2.5)
        let image = imageView(screen.image, place: "screens[\(index)].image", id: "\(screen.id)-image", label: screen.title, mode: .fit)
        let scroll = ScrollView(id: screen.id, axes: .both, configuration: config, content: image)
        let page = Overlay(
            id: "\(screen.id)-screen", alignment: UnitPoint(x: 0.5, y: 0), inset: EdgeInsets(top: 16, leading: 0, bottom: 0, trailing: 0),
            children: [
                scroll,
                // On a white pill: readable over any part of the picture (a wide screen puts it on the sky).
                HStack {
                    Spacer()
                    Label("Pinch or double-tap to zoom", size: 15, color: Self.tertiaryInk, alignment: .center, maxLines: 1)
                        .padding(EdgeInsets(horizontal: 12, vertical: 4)).background(.surface, cornerRadius: 12).fixedSize()
                    Spacer()
                },
            ])
        page.fill = .background
        return page
    }

    func buildArticle(_ screen: Manifest.Screen) -> View {
        let size = screen.fontSize ?? 22
        let lineSpacing = 1.4
        // A readable measure: at most 760 points of text, centred; narrower panels get their width.
        let text = Stack(.vertical, id: "\(screen.id)-text", spacing: 18, padding: EdgeInsets(top: 36, leading: 0, bottom: 56, trailing: 0))
        text.maxWidth = 760
        text.add(header(screen.title, screen.subtitle))
        for (i, p) in (screen.paragraphs ?? []).enumerated() {
            // Prose in the article's own language: each paragraph runs as its first letter does,
            // an Arabic one quoting "Glide" right to left on a left-to-right screen too.
            text.add(Label(p, id: "\(screen.id)-p\(i)", size: size, color: Self.ink, lineSpacing: lineSpacing).firstStrongDirection())
        }
        var config = ScrollConfiguration()
        // Page Down keeps one line of the previous page in view.
        config.pageOverlap = (size * 1.17 * lineSpacing).rounded()
        config.lineScroll = (size * 1.17 * lineSpacing).rounded()
        let column = Stack(.vertical, id: "\(screen.id)-column", alignment: .center, children: [text])
        let scroll = ScrollView(id: screen.id, axes: .vertical, configuration: config, content: column)
        scroll.fill = .surface
        return scroll
    }

    func buildPages(_ screen: Manifest.Screen) -> View {
        let count = screen.count ?? 1
        // Built as they come into view: a screen of 36 pages holds two or three.
        let strip = LazyHStack(id: "\(screen.id)-strip", count: count) { i in
            Overlay(
                id: "page-\(i)", alignment: .center,
                children: [
                    Box(fill: hsv(Double((i * 37) % 360), 0.35, 0.95)),
                    Label("\(i + 1)", size: 120, color: Self.pageInk, alignment: .center, maxLines: 1),
                ])
        }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let scroll = ScrollView(id: screen.id, axes: .horizontal, configuration: config, content: strip)
        let style = PageControl.BackgroundStyle(rawValue: screen.background ?? "prominent") ?? .prominent
        let control = PageControl(id: "\(screen.id)-pages", scrollView: scroll, backgroundStyle: style)
        control.pageImages[0] = hereGlyph()
        // Narrower than 36 dots, so the dots near the ends shrink.
        control.width = 304
        let overlay = Overlay(
            id: "\(screen.id)-screen", alignment: UnitPoint(x: 0.5, y: 1),
            inset: EdgeInsets(top: 0, leading: 40, bottom: 26, trailing: 40), children: [scroll, control])
        scroll.sizesPagesToViewport = true
        return overlay
    }

    /// A "you are here" arrow for the first page (an indicator image
    /// in place of its dot), as a coverage mask the control tints.
    func hereGlyph() -> AlphaMask {
        let size = 12
        let buffer = PixelBuffer(width: size, height: size)
        var path = Path()
        path.move(to: Point(x: 11, y: 1)); path.line(to: Point(x: 1, y: 5.2)); path.line(to: Point(x: 5.6, y: 6.4))
        path.line(to: Point(x: 6.8, y: 11)); path.close()
        Canvas(buffer, cache: RasterCache()).fill(path: path, color: Color.white.premultiplied)
        var mask = AlphaMask(width: size, height: size)
        for i in 0..<(size * size) { mask.coverage[i] = UInt8(buffer.pixels[i] >> 24) }
        return mask
    }
}

/// HSV (hue in degrees) to an opaque colour.
func hsv(_ h: Double, _ s: Double, _ v: Double) -> Color {
    let c = v * s, hp = (h.truncatingRemainder(dividingBy: 360)) / 60
    let x = c * (1 - abs(hp.truncatingRemainder(dividingBy: 2) - 1))
    var rgb: (Double, Double, Double)
    switch Int(hp) {
    case 0: rgb = (c, x, 0)
    case 1: rgb = (x, c, 0)
    case 2: rgb = (0, c, x)
    case 3: rgb = (0, x, c)
    case 4: rgb = (x, 0, c)
    default: rgb = (c, 0, x)
    }
    let m = v - c
    func b(_ f: Double) -> UInt8 { UInt8(max(0, min(255, ((f + m) * 255).rounded()))) }
    return Color(red: b(rgb.0), green: b(rgb.1), blue: b(rgb.2))
}
