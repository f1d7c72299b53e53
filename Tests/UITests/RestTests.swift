import Geometry
import Raster
import Runtime
import Scrolling
import Testing
@testable import UI

/// ENG-9 through the window: once nothing moves or fades, the window is at rest.
@Suite struct RestTests {
    @Test func aPagerWithAPageControlRestsAsSoonAsItSettles() throws {
        let strip = Stack(.horizontal, id: "strip")
        for i in 0..<5 { strip.add(row(i, height: 200, id: "page-\(i)")) }
        var config = ScrollConfiguration()
        config.isPagingEnabled = true
        let pager = ScrollView(id: "pager", axes: .horizontal, configuration: config, content: strip)
        pager.sizesPagesToViewport = true
        let control = PageControl(id: "dots", scrollView: pager, backgroundStyle: .minimal)
        let w = try makeWindow(Overlay(children: [pager, control]), width: 400, height: 200)
        w.frames(from: 0, to: 0.1)
        #expect(w.isAtRest(at: 0.1)) // no indicator to flash: the only axis has a page control
        w.drag(from: Point(x: 300, y: 100), to: Point(x: 100, y: 100), at: 0.2, duration: 0.1)
        var t = 0.31
        while !pager.controller.isAtRest(at: t) { t += 1 / 60 }
        w.frames(from: 0.31, to: t)
        #expect(pager.currentPage == 1)
        #expect(w.isAtRest(at: t + 1 / 60))
        // A list that fits shows no indicator and rests at once too.
        let short = list(3)
        let w2 = try makeWindow(short)
        w2.frames(from: 0, to: 0.05)
        #expect(w2.isAtRest(at: 0.05))
    }
}
