@_spi(Hooks) import ViewCore

/// What keeps a window from rest: the audit's `rest` rule watches frames that change nothing
/// and names the views that asked for them.
extension Window {
    package func layoutRequested(by view: View) {
        needsLayout = true
        note(asker: view)
    }

    func note(asker view: View) {
        // A view that asks every frame asks hundreds of times: it is named once, and a tree
        // that asks everywhere is named by its first few.
        guard var askers = frameAskers, askers.count < 8, !askers.contains(where: { $0 === view }) else { return }
        askers.append(view)
        frameAskers = askers
    }

    /// Starts keeping the views that ask for a layout or a redraw, forgetting any kept before.
    package func watchFrameRequests() { frameAskers = [] }

    /// Stops keeping them, and returns what kept the window from rest since
    /// `watchFrameRequests()`: the views that asked, then those animating at `t` (an animated
    /// view, or a property animation that has not ended), each once.
    package func endWatchingFrameRequests(at t: Double) -> [View] {
        var views = frameAskers ?? []
        frameAskers = nil
        let running =
            animatingViews(at: t) + animating.filter { v in v.window === self && v.animations.values.contains { !$0.isFinished(at: t) } }
        for v in running where !views.contains(where: { $0 === v }) { views.append(v) }
        return views
    }
}

extension Window {
    /// A layout said to be wrong: what was said, and the view (held weakly: a view taken out of
    /// the tree goes).
    package struct LayoutProblem {
        package weak var view: View?
        package let message: String
    }
}
