#if canImport(Glibc)
import Glibc
#endif
import Catalog
import Geometry
import Headless
import ImageCodecs
import Raster
import Runtime
import TestSupport
import Testing
import UI

/// Scripts through the headless runner on the catalog app, asserting on the state JSON and
/// the screenshots.
@Suite struct ScriptTests {
    func flickScript() -> Script {
        var s = Script()
        s.wait(100)
        // In the feed's right margin: not on the carousel's page control, which takes touches.
        s.drag(Point(x: 1004, y: 620), Point(x: 1004, y: 120), ms: 80)
        for i in 0..<16 { s.shot("flick-\(String(100 + i).dropFirst())"); s.state("flick-\(String(100 + i).dropFirst())"); s.wait(100) }
        return s
    }

    @Test func aFlickRunsIntoTheEndAndBouncesBack() throws {
        var s = flickScript()
        s.states("bounce", every: 16, for: 2500)
        let result = try run(s)
        save(result.output, prefix: "flick")
        let final = try #require(result.final.scroll("feed"))
        let maxOffset = final.contentSize[1] - final.viewportSize[1]
        #expect(maxOffset > 500)
        #expect(final.atRest && final.phase == "idle")
        #expect(final.offset == [0, maxOffset])
        let offsets = result.states.sorted { $0.key < $1.key }.compactMap { $0.value.scroll("feed")?.offset[1] }
        let peak = try #require(offsets.max())
        #expect(peak > maxOffset + 5, "overshoot to \(peak) past \(maxOffset)")
        #expect(peak < maxOffset + 300)
        // It went past the end once and came back without going past it again.
        let firstPast = try #require(offsets.firstIndex { $0 > maxOffset + 0.5 })
        let back = try #require(offsets[firstPast...].firstIndex { $0 <= maxOffset + 0.5 })
        #expect(offsets[back...].allSatisfy { $0 <= maxOffset + 0.5 && $0 >= maxOffset - 0.5 })
        // Screenshots change while it moves and stop changing at rest.
        let shots = result.output.screenshots
        #expect(shots.count == 16)
        #expect(compare(shots[0].image, shots[1].image).mismatches > 1000)
        // At rest only the indicator (the right-most 12 pixels) still changes: it fades.
        func differ(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
            var n = 0
            for y in 0..<a.height { for x in 0..<(a.width - 12) where a[x, y] != b[x, y] { n += 1 } }
            return n
        }
        #expect(differ(shots[14].image, shots[15].image) == 0)
        #expect(differ(shots[15].image, result.output.finalScreenshot!) == 0)
        #expect(compare(shots[15].image, result.output.finalScreenshot!).mismatches > 0)  // the indicator faded
        #expect(result.final.frameNumber == result.output.frames - 1)
    }

    @Test func tapsOnEachSideOfTheCurrentDotPageTheCarousel() throws {
        let app = try makeCatalog()
        let control = try frameOf("feed-carousel-pages", in: app)
        var s = Script()
        s.wait(50)
        s.tap(Point(x: control.midX + 40, y: control.midY))
        s.wait(50); s.state("moving"); s.shot("moving")
        s.wait(900); s.state("next")
        s.tap(Point(x: control.minX + 20, y: control.midY))
        s.wait(900); s.state("previous")
        s.tap(Point(x: control.maxX - 10, y: control.midY))
        s.wait(900); s.state("next-again"); s.shot("next-again")
        let result = try run(s, app: app)
        save(result.output, prefix: "dots")
        let moving = try #require(result.states["moving"]?.scroll("feed-carousel"))
        #expect(moving.offset[0] > 0 && moving.offset[0] < 574, "animated, at \(moving.offset[0])")
        #expect(result.states["moving"]?.control("feed-carousel-pages")?.interaction == "discrete")
        for (name, page) in [("next", 1), ("previous", 0), ("next-again", 1)] {
            let st = try #require(result.states[name])
            #expect(st.control("feed-carousel-pages")?.currentPage == page, "\(name)")
            #expect(st.control("feed-carousel-pages")?.interaction == "none")
            #expect(st.scroll("feed-carousel")?.page == page)
            #expect(st.scroll("feed-carousel")?.offset[0] == Double(page) * 574)
        }
        #expect(result.final.scroll("feed")?.offset == [0, 0])  // the feed did not move
    }

    /// The carousel's pages are narrower than it (the next one peeks in), so its last page
    /// starts at the end of the content, less than a page after the one before (at 1280x800 less
    /// than half a page: 159 of 574 pt).
    @Test func trailingTapsReachTheLastCarouselPage() throws {
        let app = try makeCatalog(width: 1280, height: 800)
        let control = try frameOf("feed-carousel-pages", in: app)
        var s = Script()
        for _ in 0..<6 { s.wait(50); s.tap(Point(x: control.maxX - 10, y: control.midY)); s.wait(900) }
        let result = try run(s, app: app)
        #expect(result.final.control("feed-carousel-pages")?.currentPage == 5)
        #expect(result.final.scroll("feed-carousel")?.page == 5)
        let carousel = try #require(result.final.scroll("feed-carousel"))
        #expect(carousel.offset[0] == carousel.contentSize[0] - carousel.viewportSize[0])  // the end
    }

    @Test func aScrubToTheEndAndPastIt() throws {
        let app = try makeCatalog()
        let tab = try frameOf("tab-pages", in: app)
        app.select(4); app.window.layoutIfNeeded()
        let control = try frameOf("pages-pages", in: app)
        let pager = try frameOf("pages", in: app)
        app.select(0); app.window.layoutIfNeeded()
        var s = Script()
        s.tap(Point(x: tab.midX, y: tab.midY))
        s.wait(300); s.state("start")
        let y = control.midY.rounded()
        var x = control.midX.rounded()
        s.touch("down", Point(x: x, y: y))
        var i = 0
        while x < control.maxX + 120 {
            s.wait(16); x += 8
            s.touch("move", Point(x: x, y: y))
            s.state("scrub-\(String(1000 + i).dropFirst())"); i += 1
        }
        s.shot("past-end"); s.state("past-end")
        s.wait(16); s.up(Point(x: x, y: y))
        s.wait(400); s.state("after")
        let result = try run(s, app: app)
        save(result.output, prefix: "scrub")
        #expect(result.states["start"]?.control("pages-pages")?.pageCount == 36)
        let pages = result.states.filter { $0.key.hasPrefix("scrub-") }.sorted { $0.key < $1.key }
            .compactMap { $0.value.control("pages-pages")?.currentPage }
        #expect(pages.count == i)
        #expect(zip(pages, pages.dropFirst()).allSatisfy { $1 == $0 || $1 == $0 + 1 || $1 == 35 }, "\(pages)")
        #expect(
            result.states.filter { $0.key.hasPrefix("scrub-0") && $0.key > "scrub-001" }
                .allSatisfy { $0.value.control("pages-pages")?.interaction == "continuous" })
        let past = try #require(result.states["past-end"])
        #expect(past.control("pages-pages")?.currentPage == 35)
        // Instantly: the pager is already on the page, not animating towards it.
        #expect(past.scroll("pages")?.offset[0] == 35 * pager.width)
        let after = try #require(result.states["after"])
        #expect(after.control("pages-pages")?.interaction == "none")
        #expect(after.scroll("pages")?.page == 35)
    }

    @Test func aSwipeMovesTheDot() throws {
        let app = try makeCatalog()
        let tab = try frameOf("tab-pages", in: app)
        var s = Script()
        s.tap(Point(x: tab.midX, y: tab.midY))
        s.wait(300)
        s.drag(Point(x: 800, y: 300), Point(x: 500, y: 300), ms: 96)
        s.wait(1200); s.state("swiped"); s.shot("swiped")
        s.drag(Point(x: 800, y: 300), Point(x: 500, y: 300), ms: 96)
        let result = try run(s, app: app)
        save(result.output, prefix: "swipe")
        let swiped = try #require(result.states["swiped"])
        #expect(swiped.scroll("pages")?.page == 1)
        #expect(swiped.control("pages-pages")?.currentPage == 1)
        #expect(result.final.control("pages-pages")?.currentPage == 2)
        #expect(result.final.scroll("pages")?.atRest == true)
    }

    @Test func aPinchPastTheLimitSpringsBack() throws {
        let app = try makeCatalog()
        let tab = try frameOf("tab-photo", in: app)
        var s = Script()
        s.tap(Point(x: tab.midX, y: tab.midY))
        s.wait(300)
        let c = Point(x: 640, y: 380)
        s.touch("down", Point(x: c.x - 40, y: c.y), id: 0)
        s.touch("down", Point(x: c.x + 40, y: c.y), id: 1)
        for i in 1...30 {
            s.wait(10)
            let d = 40.0 + Double(i) * 11  // 40 → 370 pt apart on each side: more than 4×
            s.touch("move", Point(x: c.x - d, y: c.y), id: 0)
            s.touch("move", Point(x: c.x + d, y: c.y), id: 1)
        }
        s.wait(40); s.state("stretched"); s.shot("stretched")
        s.up(Point(x: c.x - 370, y: c.y), id: 0)
        s.up(Point(x: c.x + 370, y: c.y), id: 1)
        s.wait(60); s.state("released")
        let result = try run(s, app: app)
        save(result.output, prefix: "pinch")
        let stretched = try #require(result.states["stretched"]?.scroll("photo"))
        #expect(stretched.scale > 4.01, "pinched to \(stretched.scale)")
        #expect(stretched.scale < 9.25)
        let final = try #require(result.final.scroll("photo"))
        #expect(final.scale == 4)
        #expect(final.atRest)
    }

    @Test func aDoubleTapZoomsInAndAgainOut() throws {
        let app = try makeCatalog()
        let tab = try frameOf("tab-photo", in: app)
        var s = Script()
        s.tap(Point(x: tab.midX, y: tab.midY))
        s.wait(300)
        let p = Point(x: 760, y: 320)
        s.tap(p); s.wait(100); s.tap(p)
        s.wait(80); s.state("zooming")
        s.wait(900); s.state("zoomed"); s.shot("zoomed")
        s.tap(p); s.wait(100); s.tap(p)
        s.wait(900); s.state("out")
        let result = try run(s, app: app)
        save(result.output, prefix: "double-tap")
        let zooming = try #require(result.states["zooming"]?.scroll("photo"))
        #expect(zooming.scale > 1 && zooming.scale < 2.5)
        let zoomed = try #require(result.states["zoomed"]?.scroll("photo"))
        #expect(zoomed.scale == 2.5 && zoomed.atRest)
        // Around the tapped point: the content moved right and down of the origin.
        #expect(zoomed.offset[0] > 0 && zoomed.offset[1] > 0)
        #expect(result.states["out"]?.scroll("photo")?.scale == 1)
    }

    @Test func pageDownThroughTheJapaneseArticle() throws {
        let app = try makeCatalog()
        let tab = try frameOf("tab-article-ja", in: app)
        var s = Script()
        s.tap(Point(x: tab.midX, y: tab.midY))
        s.wait(300); s.state("page-0")
        for i in 1...3 {
            s.key("PageDown"); s.wait(800); s.state("page-\(i)")
            if i == 1 { s.shot("page-1") }
        }
        let result = try run(s, app: app)
        save(result.output, prefix: "article-ja")
        let first = try #require(result.states["page-0"]?.scroll("article-ja"))
        let maxOffset = first.contentSize[1] - first.viewportSize[1]
        #expect(maxOffset > first.viewportSize[1] / 2, "the article is longer than the screen")
        let overlap = (22 * 1.17 * 1.4).rounded()
        var expected = 0.0
        for i in 0...3 {
            let st = try #require(result.states["page-\(i)"]?.scroll("article-ja"))
            #expect(st.offset[1] == expected, "page \(i)")
            #expect(st.atRest)
            expected = min(maxOffset, expected + st.viewportSize[1] - overlap)
        }
        #expect(result.final.scroll("article-ja")?.offset[1] == maxOffset)
        #expect(result.final.scroll("article-ja")?.topId != "article-ja-p0")
    }

    @Test func theSameScriptGivesTheSamePNGBytes() throws {
        var s = Script()
        s.wait(50)
        s.drag(Point(x: 640, y: 600), Point(x: 600, y: 300), ms: 64)
        s.wait(200); s.shot("a")
        let first = try run(s), second = try run(s)
        let a = try first.output.screenshots.map { try PNG.encode($0.image) }
        let b = try second.output.screenshots.map { try PNG.encode($0.image) }
        #expect(a.count == 1 && a == b)
        #expect(try PNG.encode(first.output.finalScreenshot!) == PNG.encode(second.output.finalScreenshot!))
        #expect(first.output.finalState == second.output.finalState)
    }
}
