import Controls
import Geometry
import Observation
import Raster
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

@Observable final class LifetimeModel {
    var showingCart = false
    var stillThere = false
    var log: [String] = []
}

/// Where modals meet the rest (issue 59): a sheet comes to rest once it is up, and a modal whose
/// presenter leaves the tree goes too, its binding set back to false.
@Suite struct ModalLifetimeTests {
    /// The sheet of the docs' example: up, it draws no more frames.
    @Test func aSheetThatIsUpRests() throws {
        let model = LifetimeModel()
        let root = VStack(spacing: 12, padding: EdgeInsets(20)) {
            Button("Cart", id: "cart") { model.showingCart = true }
        }
        .sheet(id: "cart-sheet", isPresented: Binding(model, \.showingCart)) {
            VStack(spacing: 12, padding: EdgeInsets(16)) {
                Label("Your order", size: 22).bold()
                Button("Pay", id: "pay", style: .prominent) { model.showingCart = false }
            }
        }
        let w = try makeWindow(root, width: 800, height: 480)
        _ = w.timers.runDue(upTo: 0)
        w.frames(from: 0, to: 0.5)
        #expect(w.isAtRest(at: 0.5))
        model.showingCart = true
        _ = w.timers.runDue(upTo: 0.6)
        w.frames(from: 0.6, to: 2)
        #expect(w.presentedModal?.modalKind == "sheet")
        #expect(w.isAtRest(at: 2), "a sheet that is up still asks for frames")
    }

    /// An idle reset pops the screen that showed a "Still there?" alert: the alert goes, and its
    /// binding is false, so coming back to that screen shows no alert; no button ran.
    @Test func anAlertWhosePresenterLeavesIsDismissed() throws {
        let model = LifetimeModel()
        let detail = VStack(id: "detail") { Label("Ticket") }
            .alert(
                "Still there?", id: "still", isPresented: Binding(model, \.stillThere),
                buttons: [AlertButton("Yes", role: .cancel) { model.log.append("yes") }])
        let stack = NavigationStack(id: "nav", root: VStack { Label("Stations") })
        let w = try makeWindow(stack, width: 800, height: 480)
        _ = w.timers.runDue(upTo: 0)
        stack.push(detail, title: "Ticket")
        w.frames(from: 0, to: 1)
        model.stillThere = true
        _ = w.timers.runDue(upTo: 1.1)
        w.frames(from: 1.1, to: 2)
        #expect(w.presentedModal?.modalTitle == "Still there?")
        _ = stack.pop()
        w.frames(from: 2, to: 3.5)
        _ = w.timers.runDue(upTo: 3.5)
        #expect(w.presentedModal == nil, "the alert outlived the screen that showed it")
        #expect(!model.stillThere && model.log.isEmpty)
        #expect(w.isAtRest(at: 3.5))
    }
}
