import AppContract
import Catalog
import Geometry
import Raster
import TestSupport
import Testing
import UI
@_spi(Hooks) import ViewCore

/// A touch on a view that leaves the tree is cancelled, never delivered (issue 61): a finger
/// resting on a control whose container goes away (an alert dismissed by a second finger, a
/// stepper rebuilt, a screen reset) lifts without reaching the control's action, which may hold
/// the container that is gone.
@Suite struct DepartedTouchTests {
    /// The probe's crash: one finger rests on the "Pay now?" alert's Pay while a second taps
    /// Cancel; the first then lifts.
    @Test func aFingerOnPayWhileAnotherCancelsThePaymentLiftsSafely() throws {
        let run = try OrderAppTests.Run(800, 480)
        try run.tap("add-0")
        try run.tap("cart")
        try run.tap("pay")
        #expect(run.state.modal?.title == "Pay now?")
        let pay = try center(of: "confirm.button-1", in: run)
        run.window.handle(InputEvent(.touch(.down, slot: 0, position: pay), time: run.t))
        run.advance(0.3)  // Pay shows pressed
        try tap("confirm.button-0", in: run)
        run.advance(1)  // the alert has gone out
        #expect(run.state.modal?.kind != "alert")
        run.window.handle(InputEvent(.touch(.up, slot: 0, position: pay), time: run.t))
        run.advance(0.5)
        #expect(!run.model.paying && run.model.paidOrders == 0, "the lift paid after the alert was cancelled")
    }

    /// A finger resting on a cart line's + while another + rebuilds the steppers.
    @Test func aFingerOnAStepperThatIsRebuiltLiftsSafely() throws {
        let run = try OrderAppTests.Run(800, 480)
        try run.tap("add-0")
        try run.tap("add-1")
        try run.tap("cart")
        let held = try center(of: "line-0.increment", in: run)
        run.window.handle(InputEvent(.touch(.down, slot: 0, position: held), time: run.t))
        run.advance(0.3)
        let before = run.model.cart
        try tap("line-1.increment", in: run)  // the cart's lines are built again
        run.window.handle(InputEvent(.touch(.up, slot: 0, position: held), time: run.t))
        run.advance(0.5)
        #expect(run.model.cart[0] == before[0], "a departed stepper's + changed the cart")
    }

    /// Every control the catalog and the ordering demo show first: a finger presses and holds it,
    /// its container leaves the tree (and is let go), and the finger lifts. Nothing is tapped,
    /// nothing stays pressed, and no touch is left held.
    @Test(arguments: ["catalog", "order"]) func everyControlHeldWhileItsContainerLeaves(app: String) throws {
        let count = try pressables(app).count
        #expect(count >= 5, "only \(count) controls found")
        for index in 0..<count {
            let (window, frame, keep) = try make(app)
            let views = pressables(in: window)
            guard index < views.count else { continue }
            let view = views[index], f = view.frameInWindow, p = Point(x: f.midX, y: f.midY)
            var tapped = false
            let action = view.onTap
            view.onTap = action.map { a in
                {
                    tapped = true; a()
                }
            }
            window.handle(InputEvent(.touch(.down, slot: 0, position: p), time: 1))
            _ = window.render(into: frame, at: 1.2)
            // The container goes; only the router's touch still holds the control.
            let container = view.parent ?? view
            container.removeFromParent()
            _ = window.render(into: frame, at: 1.3)
            window.handle(InputEvent(.touch(.up, slot: 0, position: p), time: 1.4))
            _ = window.timers.runDue(upTo: 2)
            _ = window.render(into: frame, at: 2)
            #expect(!tapped, "\(app): \(view.logName) was tapped after it left the tree")
            #expect(!view.isPressed, "\(app): \(view.logName) stays pressed after it left the tree")
            withExtendedLifetime(keep) {}
        }
    }

    private func make(_ app: String) throws -> (Window, PixelBuffer, AnyObject?) {
        let frame = PixelBuffer(width: 800, height: 480)
        let window: Window, keep: AnyObject?
        if app == "catalog" {
            let (catalog, w) = try AdaptiveCatalogTests.catalog(800, 480, 1)
            (window, keep) = (w, catalog)
        } else {
            let model = OrderModel()
            window = OrderApp.window(model: model, width: 800, height: 480, scaleFactor: 1, typography: try typography())
            keep = model
        }
        _ = window.timers.runDue(upTo: 0.5)
        _ = window.render(into: frame, at: 0.5)
        return (window, frame, keep)
    }

    private func pressables(_ app: String) throws -> [View] { pressables(in: try make(app).0) }

    /// Views with a tap action or a touch of their own, shown and under their own centre.
    private func pressables(in window: Window) -> [View] {
        var found: [View] = []
        func walk(_ v: View) {
            guard !v.isHidden else { return }
            if v.onTap != nil || v is TouchTarget, v !== window.root {
                let f = v.frameInWindow, c = Point(x: f.midX, y: f.midY)
                if let hit = window.root.hitTest(c), hit.selfAndAncestors.contains(where: { $0 === v }) { found.append(v) }
            }
            v.children.forEach(walk)
        }
        walk(window.root)
        return found
    }

    /// A tap by a second finger while the first rests.
    private func tap(_ id: String, in run: OrderAppTests.Run) throws {
        let p = try center(of: id, in: run)
        run.window.handle(InputEvent(.touch(.down, slot: 1, position: p), time: run.t))
        run.window.handle(InputEvent(.touch(.up, slot: 1, position: p), time: run.t + 0.05))
        run.t += 0.06
        run.advance(0.6)
    }

    private func center(of id: String, in run: OrderAppTests.Run) throws -> Point {
        let f = try #require(run.state.elements.first { $0.id == id }?.frame, "no element \(id)")
        return Point(x: f[0] + f[2] / 2, y: f[1] + f[3] / 2)
    }
}
