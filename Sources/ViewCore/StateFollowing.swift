import AppContract
import NIOConcurrencyHelpers
import Observation

/// Reruns a view's update whenever an `@Observable` property it read changes. Observation
/// reports a change once, on the thread that made it, before the value is stored; the follower
/// then posts the rerun to the loop's thread, so the view reads the new value there, at the
/// next frame, and tracks again.
package final class StateFollower: @unchecked Sendable {
    /// Loop thread only.
    private weak var view: View?
    private let update: (View) -> Void
    /// Any thread: where to post a rerun once known, and whether a change waits for it.
    private struct Mailbox {
        var scheduler: LoopScheduler?
        var changed = false
        var posted = false
    }
    private let mailbox = NIOLockedValueBox(Mailbox())

    /// The update needs its view's window (a presenter shows a sheet there): it runs again when
    /// the view first joins one. Others run again only for a change made before that.
    private let needsWindow: Bool

    init(view: View, needsWindow: Bool = false, update: @escaping (View) -> Void) {
        self.view = view
        self.needsWindow = needsWindow
        self.update = update
    }

    /// Runs the update now, tracking what it reads.
    func run() {
        guard let view else { return }
        withObservationTracking {
            update(view)
        } onChange: { [weak self] in
            self?.changed()
        }
    }

    /// The view is in a window whose loop is `scheduler`: changes are posted there from now on
    /// (and one that came before the view had a window is applied now).
    func adopt(_ scheduler: LoopScheduler, ranThere: Bool = false) {
        let post = mailbox.withLockedValue { box -> Bool in
            if box.scheduler == nil, needsWindow, !ranThere { box.changed = true }
            box.scheduler = scheduler
            guard box.changed, !box.posted else { return false }
            box.posted = true
            return true
        }
        if post { schedule(on: scheduler) }
    }

    private func changed() {
        let scheduler = mailbox.withLockedValue { box -> LoopScheduler? in
            box.changed = true
            guard let s = box.scheduler, !box.posted else { return nil }
            box.posted = true
            return s
        }
        if let scheduler { schedule(on: scheduler) }
    }

    private func schedule(on scheduler: LoopScheduler) {
        scheduler.post { [weak self] in
            guard let self else { return }
            mailbox.withLockedValue {
                $0.changed = false; $0.posted = false
            }
            run()
        }
    }
}

/// What gives every view `follow(_:)` with its own type in the closure (`Label("").follow { $0.text
/// = ... }`): a protocol extension's `Self` is the concrete type for the compiler in every Swift 6
/// release, where a class method's dynamic `Self` is not.
public protocol Following: AnyObject {}

extension View: Following {}

extension Following where Self: View {
    /// Keeps this view up to date with the app's `@Observable` model: `update` runs now and
    /// again, on the loop's thread before the next frame, whenever a model property it read
    /// changes, whichever thread changed it. Nothing else needs wiring up:
    ///
    /// ```swift
    /// Label("").follow { $0.text = "\(cart.count) items" }
    /// ```
    ///
    /// Several calls add several updates. A view out of any window updates once it is in one.
    @discardableResult
    public func follow(_ update: @escaping (Self) -> Void) -> Self {
        addFollower(needsWindow: false) { update($0 as! Self) }
        return self
    }
}

extension View {
    /// Runs `update` now and whenever what it read changes; `needsWindow`: also once the view
    /// first joins a window (an update that acts on the window, as a presenter does).
    package func addFollower(needsWindow: Bool, _ update: @escaping (View) -> Void) {
        let follower = StateFollower(view: self, needsWindow: needsWindow, update: update)
        followers.append(follower)
        follower.run()
        // Already in a window: it just ran there.
        if let scheduler = host?.timers { follower.adopt(scheduler, ranThere: true) }
    }
}

extension View {
    /// Hands the followers of this subtree the loop they post to: called as a subtree joins a
    /// window's tree.
    package func adoptFollowers(_ scheduler: LoopScheduler) {
        for f in followers { f.adopt(scheduler) }
        for c in children { c.adoptFollowers(scheduler) }
    }
}
