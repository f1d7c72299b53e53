import Controls
import Geometry
import Observation
import Raster
import Testing
@testable import UI
@_spi(Hooks) import ViewCore
import Widgets

@Observable final class ModalModel {
    var confirming = false
    var choosing = false
    var showingCart = false
    var log: [String] = []
}

/// Alerts, dialogs and sheets: modal for touches, keys, focus and the screen reader, closed by
/// their buttons, Esc, a tap outside or a drag down, each setting the binding back.
@Suite struct ModalTests {
    func setup() throws -> (Window, ModalModel, Button) {
        let model = ModalModel()
        let behind = Button("Behind", id: "behind") { model.log.append("behind") }
        let root = VStack(padding: EdgeInsets(20)) {
            behind; Spacer()
        }
        .alert(
            "Delete order?", id: "confirm", isPresented: Binding(model, \.confirming), message: "This cannot be undone.",
            buttons: [
                AlertButton("Cancel", role: .cancel) { model.log.append("cancel") },
                AlertButton("Delete", role: .destructive) { model.log.append("delete") },
            ]
        )
        .confirmationDialog(
            "Pay how?", id: "pay", isPresented: Binding(model, \.choosing),
            buttons: [AlertButton("Card") { model.log.append("card") }, AlertButton("Cancel", role: .cancel)]
        )
        .sheet(id: "cart", isPresented: Binding(model, \.showingCart)) {
            VStack(spacing: 8, padding: EdgeInsets(16)) {
                Label("Your order", id: "cart-title", size: 22).bold()
                Button("Checkout", id: "checkout") { model.log.append("checkout") }
            }
        }
        let w = try makeWindow(root, width: 400, height: 600)
        _ = w.timers.runDue(upTo: 0)  // the first window's rerun of the presenters
        return (w, model, behind)
    }

    func settle(_ w: Window, _ t: inout Double, _ seconds: Double = 1) {
        _ = w.timers.runDue(upTo: t)
        w.frames(from: t, to: t + seconds)
        t += seconds + 0.01
        _ = w.timers.runDue(upTo: t)
    }

    @Test func anAlertIsModalAndItsButtonsCloseIt() throws {
        let (w, model, behind) = try setup()
        var t = 0.1
        model.confirming = true
        settle(w, &t)
        let state = w.state(at: t, frameNumber: 0)
        #expect(state.modal?.kind == "alert" && state.modal?.title == "Delete order?" && state.modal?.id == "confirm")
        #expect(state.elements.map(\.id) == ["confirm.button-0", "confirm.button-1"])
        #expect(w.accessibilityElements().map(\.label) == ["Delete order?", "This cannot be undone.", "Cancel", "Delete"])
        // The app behind takes no touch; Tab stays inside the alert.
        w.tap(behind.frameInWindow.midX, behind.frameInWindow.midY, at: t)
        #expect(model.log.isEmpty)
        var focused: [String] = []
        for i in 0..<3 { w.key(.tab, at: t + Double(i) * 0.01); focused.append(w.focusedView?.id ?? "-") }
        #expect(focused == ["confirm.button-0", "confirm.button-1", "confirm.button-0"])
        w.key(.tab, at: t + 0.05)
        w.key(.enter, at: t + 0.06)
        t += 0.1
        settle(w, &t)
        #expect(model.log == ["delete"])
        #expect(!model.confirming)
        #expect(w.state(at: t, frameNumber: 0).modal == nil)
        w.tap(behind.frameInWindow.midX, behind.frameInWindow.midY, at: t)
        #expect(model.log == ["delete", "behind"])
    }

    @Test func escapePressesTheCancelButton() throws {
        let (w, model, _) = try setup()
        var t = 0.1
        model.confirming = true
        settle(w, &t)
        w.key(.escape, at: t)
        settle(w, &t)
        #expect(model.log == ["cancel"] && !model.confirming)
        #expect(w.state(at: t, frameNumber: 0).modal == nil)
    }

    @Test func aDialogCancelsOnATapOutside() throws {
        let (w, model, _) = try setup()
        var t = 0.1
        model.choosing = true
        settle(w, &t)
        #expect(w.state(at: t, frameNumber: 0).modal?.kind == "dialog")
        w.tap(200, 60, at: t)
        settle(w, &t)
        #expect(!model.choosing && model.log.isEmpty)
    }

    /// A frame drawn twice at one time (a display's frame, then a full redraw) puts a rising
    /// dialog in one place: its rise was measured from where it was last drawn (issue 59).
    @Test func aRisingDialogSampledTwiceAtOneTimeStaysPut() throws {
        let (w, model, _) = try setup()
        model.choosing = true
        _ = w.timers.runDue(upTo: 0.1)
        let frame = PixelBuffer(width: w.pixelWidth, height: w.pixelHeight)
        for n in 0...3 { _ = w.render(into: frame, at: 0.1 + Double(n) / 60) }
        let card = try #require(w.holder.view(withID: "pay.button-0"))
        let drawn = card.frameInWindow.minY
        w.fullDamage = true
        _ = w.render(into: frame, at: 0.1 + 3 / 60)
        #expect(card.frameInWindow.minY == drawn)
        #expect(drawn > 300)  // still rising
    }

    /// An alert's two buttons sit side by side while their titles fit, and one above the other
    /// at 300 % text, where side by side broke "Cancel" inside the word (issue 59).
    @Test func anAlertStacksItsTwoButtonsWhenLargeTextWouldBreakThem() throws {
        for (scale, sideBySide) in [(1.0, true), (3.0, false)] {
            let (w, model, _) = try setup()
            w.textScale = scale
            var t = 0.1
            model.confirming = true
            settle(w, &t)
            let cancel = try #require(w.holder.view(withID: "confirm.button-0"))
            let delete = try #require(w.holder.view(withID: "confirm.button-1"))
            #expect((cancel.frameInWindow.minY == delete.frameInWindow.minY) == sideBySide, "text at \(scale)")
            #expect(w.layoutProblems.isEmpty, "text at \(scale): \(w.layoutProblems)")
        }
    }

    @Test func aSheetSlidesUpAndADragDownClosesIt() throws {
        let (w, model, _) = try setup()
        var t = 0.1
        model.showingCart = true
        _ = w.timers.runDue(upTo: t)
        w.frames(from: t, to: t + 0.05)
        let title = try #require(w.holder.view(withID: "cart-title"))
        let midway = title.frameInWindow.minY
        settle(w, &t)
        let rest = title.frameInWindow.minY
        #expect(midway > rest)  // it was still rising
        #expect(rest > 300)  // as tall as its content, at the bottom
        #expect(w.state(at: t, frameNumber: 0).modal?.kind == "sheet")
        // A tap on the sheet's content is not a tap outside.
        w.tap(200, rest + 5, at: t)
        settle(w, &t, 0.3)
        #expect(model.showingCart)
        // Dragged down by its grabber and let go: the spring takes it away.
        let grabber = rest - 24 - 16 + 10
        let end = w.drag(from: Point(x: 200, y: grabber), to: Point(x: 200, y: grabber + 150), at: t, duration: 0.1)
        t = end + 0.01
        settle(w, &t)
        #expect(!model.showingCart)
        #expect(w.holder.view(withID: "cart-title") == nil)
        #expect(w.state(at: t, frameNumber: 0).modal == nil)
    }

    @Test func aSheetClosesOnEscapeAndOnATapOnTheDimmedScreen() throws {
        let (w, model, _) = try setup()
        var t = 0.1
        model.showingCart = true
        settle(w, &t)
        w.key(.escape, at: t)
        settle(w, &t)
        #expect(!model.showingCart)
        model.showingCart = true
        settle(w, &t)
        w.tap(200, 40, at: t)
        settle(w, &t)
        #expect(!model.showingCart)
    }
}
