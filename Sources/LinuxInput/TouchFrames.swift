import Geometry
import AppContract

/// Groups touch events until libinput's TOUCH_FRAME so that an app sees all fingers of one
/// hardware frame together (a pinch's two fingers), and keeps the slot bookkeeping honest: a
/// move or up for a slot that is not down is dropped, a second down on a live slot cancels the
/// old touch first, and a device that vanishes mid-gesture cancels its touches (REL).
package struct TouchFrameAssembler: Sendable {
    package private(set) var activeSlots: [Int: Point] = [:]
    private var held: [InputEvent] = []
    package init() {}

    /// Feeds one event; returns what is ready for the app. Touch events are held until the frame
    /// event; other events pass straight through (after any held touches, keeping order).
    package mutating func add(_ event: InputEvent) -> [InputEvent] {
        switch event.kind {
        case .touch(let phase, let slot, let position):
            switch phase {
            case .down:
                if let old = activeSlots[slot] {
                    held.append(InputEvent(.touch(.cancel, slot: slot, position: old), time: event.time))
                }
                activeSlots[slot] = position
                held.append(event)
            case .move:
                guard activeSlots[slot] != nil else { return [] }
                activeSlots[slot] = position
                held.append(event)
            case .up, .cancel:
                guard let last = activeSlots.removeValue(forKey: slot) else { return [] }
                // libinput's up/cancel carry no position: report where the finger last was.
                held.append(InputEvent(.touch(phase, slot: slot, position: last), time: event.time))
            }
            return []
        case .touchFrame:
            guard !held.isEmpty else { return [] }
            var out = held
            out.append(event)
            held.removeAll()
            return out
        default:
            var out = held
            if !out.isEmpty { out.append(InputEvent(.touchFrame, time: event.time)) }
            held.removeAll()
            out.append(event)
            return out
        }
    }

    /// The touch device went away: cancels every touch still down, in slot order, with a frame.
    package mutating func cancelAll(time: Double) -> [InputEvent] {
        var out = held
        held.removeAll()
        for slot in activeSlots.keys.sorted() {
            out.append(InputEvent(.touch(.cancel, slot: slot, position: activeSlots[slot]!), time: time))
        }
        activeSlots.removeAll()
        if !out.isEmpty { out.append(InputEvent(.touchFrame, time: time)) }
        return out
    }
}
