import AppContract
import Catalog
import Geometry
import Raster
import TestSupport
import Testing
import UI

/// The ordering kiosk end to end: products added from the grid, the takeaway switch, the cart
/// sheet with its steppers, the confirmation alert, the spinner while paying, and goldens at
/// three panel sizes; a flick of the grid ends where it would while the model changes.
@Suite struct OrderAppTests {
    final class Run {
        let model = OrderModel()
        let window: Window
        let frame: PixelBuffer
        var t = 0.0
        init(_ width: Int, _ height: Int) throws {
            window = OrderApp.window(model: model, width: width, height: height, scaleFactor: 1, typography: try typography())
            frame = PixelBuffer(width: width, height: height)
            advance(0.5)
        }
        /// Renders frames 10 times a second (and runs timers and posted work) for `seconds`:
        /// motion is a function of time, so fewer frames end in the same picture.
        func advance(_ seconds: Double) {
            let end = t + seconds
            while t < end {
                _ = window.timers.runDue(upTo: t)
                _ = window.render(into: frame, at: t)
                t += 0.1
            }
            _ = window.timers.runDue(upTo: t)
            _ = window.render(into: frame, at: t)
        }
        var state: WindowState { window.state(at: t, frameNumber: 0) }
        func tap(_ id: String) throws {
            let f = try #require(state.elements.first { $0.id == id }?.frame, "no element \(id)")
            let p = Point(x: f[0] + f[2] / 2, y: f[1] + f[3] / 2)
            window.handle(InputEvent(.touch(.down, slot: 0, position: p), time: t))
            window.handle(InputEvent(.touch(.up, slot: 0, position: p), time: t + 0.05))
            t += 0.06
            advance(0.6)
        }
        func control(_ id: String) -> WindowState.ControlState? { state.controls.first { $0.id == id } }
    }

    @Test(arguments: [(800, 480), (1280, 800), (720, 1280)])
    func anOrderFromGridToPayment(width: Int, height: Int) throws {
        let run = try Run(width, height)
        #expect(run.control("cart")?.enabled == false)
        assertGolden(run.frame, suite: "Catalog", name: "order-\(width)x\(height)-menu", maxChannelDelta: 2)
        try run.tap("add-0")
        try run.tap("add-0")
        try run.tap("add-1")
        try run.tap("takeaway")
        #expect(run.model.cart == [0: 2, 1: 1] && run.model.takeaway)
        #expect(run.control("takeaway")?.value == 1 && run.control("cart")?.enabled == true)
        try run.tap("cart")
        #expect(run.state.modal?.kind == "sheet" && run.state.modal?.id == "cart-sheet")
        #expect(run.control("line-0")?.value == 2 && run.control("line-1")?.value == 1)
        assertGolden(run.frame, suite: "Catalog", name: "order-\(width)x\(height)-cart", maxChannelDelta: 2)
        try run.tap("line-0.decrement")
        #expect(run.model.cart == [0: 1, 1: 1])
        try run.tap("pay")
        #expect(run.state.modal?.kind == "alert" && run.state.modal?.title == "Pay now?")
        assertGolden(run.frame, suite: "Catalog", name: "order-\(width)x\(height)-confirm", maxChannelDelta: 2)
        try run.tap("confirm.button-1")
        #expect(run.model.paying)
        #expect(run.control("paying")?.kind == "progress" && run.control("paying")?.value == nil)
        run.advance(2.5)
        #expect(!run.model.paying && run.model.cart.isEmpty && run.model.paidOrders == 1)
        #expect(run.state.modal == nil)
    }

    /// The header's language button (id `language`) cycles English, Arabic, German in place:
    /// the words, the prices and the direction change at once; the cart, the grid's place and
    /// the sheet stay (issue 60). Goldens of the cart in each language.
    @Test(arguments: [(1280, 800), (480, 800)])
    func theLanguageButtonSwitchesInPlace(width: Int, height: Int) throws {
        let run = try Run(width, height)
        try run.tap("add-0")
        try run.tap("add-0")
        let menu = try #require(run.state.scrollViews.first { $0.id == "menu" })
        var seen: [(String, String)] = []
        for language in ["ar", "de", "en"] {
            try run.tap("language")
            let state = run.state
            seen.append((state.language, state.layoutDirection))
            // The grid's content stays where it was on the screen: when the header takes one
            // row instead of two, the grid's top moves up and its offset by as much.
            let now = try #require(state.scrollViews.first { $0.id == "menu" })
            let grown = now.viewportSize[1] - menu.viewportSize[1]
            #expect(run.model.cart == [0: 2] && now.topId == menu.topId && now.offset[1] == max(0, menu.offset[1] - grown), "\(language)")
            if language != "en" {
                try run.tap("cart")
                assertGolden(run.frame, suite: "Catalog", name: "order-\(width)x\(height)-cart-\(language)", maxChannelDelta: 2)
                run.window.handle(InputEvent(.key(.escape, pressed: true), time: run.t))
                run.advance(0.6)
            }
        }
        #expect(seen.map(\.0) == ["ar", "de", "en"] && seen.map(\.1) == ["rtl", "ltr", "ltr"])
    }

    @Test func aFlickOfTheGridEndsWhereItWouldWhileTheModelChanges() throws {
        func flick(changing: Bool) throws -> Double {
            let run = try Run(800, 480)
            let start = run.t
            run.window.handle(InputEvent(.touch(.down, slot: 0, position: Point(x: 400, y: 420)), time: start))
            for i in 1...6 {
                run.window.handle(
                    InputEvent(.touch(.move, slot: 0, position: Point(x: 400, y: 420 - Double(i) * 40)), time: start + Double(i) * 0.008))
            }
            run.window.handle(InputEvent(.touch(.up, slot: 0, position: Point(x: 400, y: 180)), time: start + 0.05))
            run.t = start + 0.05
            for k in 0..<40 {
                if changing { run.model.cart[k % 5, default: 0] += 1; run.model.takeaway.toggle() }
                run.advance(0.1)
            }
            if !changing {
                // The category of the products at the top stays pinned over them.
                let grid = try #require(run.window.root.view(withID: "products") as? LazyVGrid)
                #expect(abs((grid.pinnedViews.first?.frameInWindow.minY ?? 0) - 61) < 0.5)
                assertGolden(run.frame, suite: "Catalog", name: "order-800x480-scrolled", maxChannelDelta: 2)
            }
            return run.state.scrollViews.first { $0.id == "menu" }?.offset[1] ?? .nan
        }
        let still = try flick(changing: false), changing = try flick(changing: true)
        #expect(still > 300)
        #expect(still == changing)
    }

    /// Left alone, the kiosk asks "Still there?" 20 seconds before it starts over; Continue
    /// keeps the order, and two more minutes alone empty the cart for the next visitor.
    @Test func leftAloneTheOrderAsksFirstThenStartsOver() throws {
        let run = try Run(800, 480)
        try run.tap("add-0")
        func idle(_ seconds: Double) {
            let end = run.t + seconds
            while run.t < end { run.t += 1; _ = run.window.timers.runDue(upTo: run.t) }
            run.advance(0.5)
        }
        idle(101)
        #expect(run.state.modal?.id == "still-there" && run.model.cart == [0: 1])
        try run.tap("still-there.button-0")
        #expect(run.state.modal == nil && !run.model.askingStillThere)
        idle(110)
        #expect(run.model.cart == [0: 1])
        idle(12)
        #expect(run.model.cart.isEmpty && run.state.modal == nil)
    }

    /// The demo's tour of the ordering app, rehearsed on a copy at 800x480: its taps reach the
    /// sheet's and the alert's buttons, so the order is paid, and it ends on the grid flicked.
    @Test func theDemoTourOrdersAndPays() throws {
        let model = OrderModel()
        let copy = OrderApp.window(model: model, width: 800, height: 480, scaleFactor: 1, typography: try typography())
        let script = OrderTour.script(rehearsingOn: copy)
        let shots = script.entries.compactMap { entry -> String? in
            if case let .screenshot(name) = entry.action { return name } else { return nil }
        }
        #expect(shots.count == 7 && shots.last == "order-07-pinned-header")
        #expect(model.paidOrders == 1 && model.cart.isEmpty && model.takeaway)
    }
}
