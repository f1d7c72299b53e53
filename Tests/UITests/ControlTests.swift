import Controls
import Geometry
import Logging
import Observation
import Raster
import Runtime
import Scrolling
import Testing
@_spi(Hooks) import ViewCore
@testable import UI
import Widgets

@Observable final class OrderModel {
    var takeaway = false
    var quantity = 1
    var volume = 0.5
    var size = 0
    var note = "ready"
}

/// The controls through real input: touches, keys, the screen reader's actions and the state
/// JSON, each against the model behind its binding.
@Suite struct ControlTests {
    func state(_ w: Window, at t: Double) -> WindowState { w.state(at: t, frameNumber: 0) }

    func control(_ w: Window, _ id: String, at t: Double = 5) -> WindowState.ControlState? {
        state(w, at: t).controls.first { $0.id == id }
    }

    @Test func aButtonActsOnTapAndEnterButNotWhileDisabled() throws {
        final class Count { var n = 0 }
        let count = Count()
        let pay = Button("Pay", id: "pay", icon: .cart, style: .prominent) { count.n += 1 }
        let w = try makeWindow(VStack(padding: EdgeInsets(20), alignment: .center) { pay })
        #expect(pay.frame.height == 44)
        #expect(pay.frame.width > 80 && pay.frame.width < 200)  // as wide as its title and icon
        w.tap(pay.frame.midX + 20, 30, at: 0.1)
        #expect(count.n == 1)
        w.key(.tab, at: 0.3)
        #expect(w.focusedView === pay)
        w.key(.enter, at: 0.4)
        #expect(count.n == 2)
        #expect(control(w, "pay")?.kind == "button" && control(w, "pay")?.enabled == true && control(w, "pay")?.value == nil)
        pay.disabled()
        w.tap(pay.frame.midX + 20, 30, at: 0.6)
        w.key(.enter, at: 0.7)
        #expect(count.n == 2)
        #expect(control(w, "pay")?.enabled == false)
        let element = w.accessibilityElements().first { $0.view === pay }
        #expect(element?.spokenText == "Pay, dimmed, button")
    }

    @Test func aToggleFlipsOnTapDragAndEnterAndWritesItsBinding() throws {
        let model = OrderModel()
        let toggle = Toggle("Takeaway", id: "takeaway", isOn: Binding(model, \.takeaway))
        let w = try makeWindow(VStack(padding: EdgeInsets(horizontal: 20, vertical: 0)) { toggle })
        w.tap(100, 22, at: 0.1)  // on the title: the whole row flips it
        #expect(model.takeaway && toggle.isOn)
        #expect(control(w, "takeaway")?.value == 1)
        // The knob dragged back across the track, from its on end.
        let right = 380.0 - 14
        w.drag(from: Point(x: right, y: 22), to: Point(x: right - 40, y: 22), at: 0.5)
        #expect(!model.takeaway && !toggle.isOn)
        w.tab(); w.key(.enter, at: 1)
        #expect(model.takeaway)
        let element = w.accessibilityElements().first { $0.view === toggle }
        #expect(element?.spokenText == "Takeaway, on, switch")
    }

    @Test func aToggleInAListLetsAnUpwardDragScroll() throws {
        let model = OrderModel()
        let toggle = Toggle("Takeaway", isOn: Binding(model, \.takeaway))
        let stack = Stack(.vertical, children: [toggle] + (0..<20).map { row($0) })
        let sv = ScrollView(id: "list", content: stack)
        let w = try makeWindow(sv)
        let end = w.drag(from: Point(x: 370, y: 22), to: Point(x: 370, y: -100), at: 0.1, duration: 0.2)
        w.frames(from: end, to: end + 3)
        #expect(!model.takeaway)
        #expect(sv.sampledOffset.y > 100)
    }

    @Test func aSliderFollowsTheFingerInStepsAndTheArrowKeys() throws {
        let model = OrderModel()
        let slider = Slider("Volume", id: "volume", value: Binding(model, \.volume), in: 0...100, step: 5)
        let w = try makeWindow(VStack { slider })
        // The track runs from 16 to 384 points: a tap at 108 is a quarter of the way, 25.
        w.tap(108, 22, at: 0.1)
        #expect(model.volume == 25 && slider.value == 25)
        w.drag(from: Point(x: 108, y: 22), to: Point(x: 200 + 0.3 * 368 / 100 * 5, y: 22), at: 0.5)
        #expect(model.volume == 50)
        w.tab()
        w.key(.right, at: 1)
        #expect(model.volume == 55)
        w.key(.end, at: 1.1)
        #expect(model.volume == 100)
        #expect(control(w, "volume")?.value == 100)
        #expect(w.accessibilityElements().first { $0.view === slider }?.spokenText == "Volume, 100, adjustable")
    }

    @Test func aSliderRunsFromTheRightInARightToLeftLayout() throws {
        let model = OrderModel()
        let slider = Slider(value: Binding(model, \.volume))
        let w = try makeWindow(VStack { slider })
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        w.tap(108, 22, at: 0.1)
        #expect(model.volume == 0.75)
        w.tab()
        w.key(.left, at: 1)  // the way the arrow points: towards the end
        #expect(model.volume == 0.8)
    }

    @Test func badSliderInputIsReportedOnceAndShownAtTheStart() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        let model = OrderModel()
        model.volume = .nan
        let slider = Slider(id: "bad", value: Binding(model, \.volume), in: 3...3)
        let w = try makeWindow(VStack { slider })
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.frames(from: 0, to: 0.1)
        #expect(slider.value == 3)
        #expect(
            lines.lines == [
                "Slider 'bad' has an empty range (3.0...3.0): it cannot move", "Slider 'bad' was given nan; it shows 3.0",
            ])
        w.tap(300, 22, at: 0.2)
        #expect(slider.value == 3)
    }

    @Test func aPickerWithoutOptionsSaysSoAndTakesNoKey() throws {
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let lines = Lines()
        let model = OrderModel()
        let picker = Picker("Size", id: "empty", selection: Binding(model, \.size), options: [])
        let w = try makeWindow(VStack { picker })
        w.log = Logger.lines { _, text in lines.lines.append(text) }
        w.frames(from: 0, to: 0.1)
        #expect(lines.lines == ["Picker 'empty' has no options: there is nothing to choose"])
        #expect(picker.selection == -1 && control(w, "empty")?.value == -1)
        w.tab()
        w.key(.right, at: 0.2)
        #expect(model.size == 0)
    }

    @Test func aStepperStepsWithinItsRangeAndDimsTheEnd() throws {
        let model = OrderModel()
        let stepper = Stepper("Quantity", id: "quantity", value: Binding(model, \.quantity), in: 1...3)
        let w = try makeWindow(VStack { stepper })
        let plus = try #require(w.root.view(withID: "quantity.increment")), minus = try #require(w.root.view(withID: "quantity.decrement"))
        #expect(minus.onTap == nil)  // at the lower end
        for i in 0..<3 { w.tap(plus.frameInWindow.midX, plus.frameInWindow.midY, at: 0.1 + Double(i) * 0.3) }
        #expect(model.quantity == 3)
        #expect(plus.onTap == nil && minus.onTap != nil)
        w.tab()
        w.key(.left, at: 2)
        #expect(model.quantity == 2)
        #expect(control(w, "quantity")?.value == 2)
        #expect(w.accessibilityElements().first { $0.view === stepper }?.spokenText == "Quantity, 2, adjustable")
    }

    @Test func aPickerChoosesByTapAndKeysAndMirrorsRightToLeft() throws {
        let model = OrderModel()
        let picker = Picker("Size", id: "size", selection: Binding(model, \.size), options: ["S", "M", "L"])
        let w = try makeWindow(VStack { picker })
        w.tap(390, 22, at: 0.1)
        #expect(model.size == 2)
        w.tab()
        w.key(.left, at: 0.5)
        #expect(model.size == 1)
        #expect(control(w, "size")?.value == 1)
        w.layoutDirection = .rightToLeft
        w.layoutIfNeeded()
        w.tap(390, 22, at: 1)  // the rightmost segment is the first, right to left
        #expect(model.size == 0)
    }

    @Test func aSpinnerAsksForFramesOnlyWhileOnScreen() throws {
        let spinner = ProgressView("Paying", id: "paying")
        let stack = Stack(.vertical, children: [spinner] + (0..<30).map { row($0) })
        let sv = ScrollView(id: "list", content: stack)
        let w = try makeWindow(sv)
        w.frames(from: 0, to: 0.1)
        #expect(spinner.isAnimating(at: 0.1))
        #expect(control(w, "paying", at: 0.1)?.value == nil)
        sv.scroll(to: Point(x: 0, y: 500), animated: false)
        w.frames(from: 0.2, to: 0.3)
        #expect(!spinner.isAnimating(at: 0.3))
        sv.scroll(to: Point.zero, animated: false)
        w.frames(from: 0.4, to: 0.5)
        spinner.isHidden = true
        #expect(!spinner.isAnimating(at: 0.5))
        spinner.isHidden = false
        spinner.value = 0.25
        #expect(!spinner.isAnimating(at: 0.6))
        #expect(control(w, "paying", at: 0.6)?.value == 0.25)
    }

    /// A label that follows the model takes a change made on another thread at the next frame.
    @Test func aFollowingLabelTakesAChangeFromAnotherThreadAtTheNextFrame() async throws {
        let model = OrderModel()
        let label = Label("").follow { $0.text = "\(model.quantity) × \(model.note)" }
        let w = try makeWindow(VStack { label })
        #expect(label.text == "1 × ready")
        final class Carrier: @unchecked Sendable { let model: OrderModel; init(_ m: OrderModel) { model = m } }
        let carrier = Carrier(model)
        await Task.detached { carrier.model.quantity = 4 }.value
        #expect(label.text == "1 × ready")  // not on the other thread
        #expect(w.timers.runDue(upTo: 0.1))
        #expect(label.text == "4 × ready")
        model.note = "paid"
        model.note = "done"  // two changes before a frame: one update
        #expect(w.timers.runDue(upTo: 0.2))
        #expect(label.text == "4 × done")
        #expect(!w.timers.runDue(upTo: 0.3))
    }

    /// A followed view built outside a window (a lazy row) runs its update once when it joins one
    /// with nothing changed, not again at the next frame; a presenter's runs again (it needs the
    /// window).
    @Test func joiningAWindowRunsAnUpdateOnlyWhenItNeedsTheWindow() throws {
        final class Count { var n = 0 }
        let count = Count()
        let model = OrderModel()
        let label = Label("").follow {
            count.n += 1; $0.text = model.note
        }
        let w = try makeWindow(VStack { label })
        #expect(!w.timers.runDue(upTo: 0.1))
        #expect(count.n == 1)
    }

    /// A view built before it is in a window follows from when it joins one.
    @Test func aViewOutsideAWindowFollowsOnceItJoinsOne() throws {
        let model = OrderModel()
        let label = Label("").follow { $0.text = model.note }
        model.note = "changed before"
        let w = try makeWindow(VStack { label })
        #expect(w.timers.runDue(upTo: 0.1))
        #expect(label.text == "changed before")
    }

    /// A flick's end does not change when a timer changes a followed label during it, and every
    /// frame equals a full redraw.
    @Test func aChangingModelLeavesAFlickAlone() throws {
        func flick(changing: Bool) throws -> Double {
            let model = OrderModel()
            let label = Label("").follow { $0.text = "Order \(model.quantity)" }
            let toggle = Toggle("Takeaway", isOn: Binding(model, \.takeaway))
            let stack = Stack(.vertical, children: [label, toggle] + (0..<60).map { row($0) })
            let sv = ScrollView(id: "list", content: stack)
            let w = try makeWindow(sv)
            let end = w.drag(from: Point(x: 200, y: 350), to: Point(x: 200, y: 150), at: 0.1, duration: 0.1)
            var t = end
            while t < end + 4 {
                if changing { model.quantity += 1; model.takeaway.toggle() }
                _ = w.timers.runDue(upTo: t)
                w.frames(from: t, to: t + 0.1)
                t += 0.1
            }
            return sv.sampledOffset.y
        }
        let still = try flick(changing: false), changing = try flick(changing: true)
        #expect(still > 300)
        #expect(still == changing)
    }
}

extension Window {
    /// Tab until a control has focus.
    func tab() { key(.tab, at: currentTime) }
}
