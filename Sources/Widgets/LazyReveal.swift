@_spi(Hooks) import ViewCore
import Geometry
import Scrolling

/// A program scroll to an item of lazy content, a part of its own: rows not yet
/// built have estimated places, so the scroll is aimed again as they are built and measured,
/// until the view comes to rest on the item or a finger takes over.
struct LazyReveal {
    enum Target { case index(Int), id(String) }
    let target: Target
    let anchor: UnitPoint?
    let animated: Bool

    /// Aims `controller` again at where the item is now (`rect`; nil: it is gone). Returns
    /// whether the reveal goes on, and whether it moved the aim (a frame is then wanted).
    func refine(
        _ controller: inout ScrollController, itemRect rect: Rect?, isBuilt: Bool,
        at t: Double
    ) -> (goesOn: Bool, aimed: Bool) {
        let state = controller.state(at: t)
        // A finger or a fling took over.
        guard ![.dragging, .touching, .zooming, .decelerating].contains(state.phase), let rect else { return (false, false) }
        let goal = controller.offset(revealing: rect, anchor: anchor, from: state.offset)
        let aimed = (goal - (controller.destination(at: t) ?? state.offset)).length > 0.25
        if aimed { controller.scroll(to: goal, animated: animated && state.phase != .idle, at: t) }
        return (!(state.phase == .idle && (isBuilt || !aimed)), aimed)
    }
}
