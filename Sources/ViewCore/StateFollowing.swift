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

    init(view: View, update: @escaping (View) -> Void) {
        self.view = view
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
    /// `justRun`: the update ran in this window a moment ago, so joining needs no rerun.
    func adopt(_ scheduler: LoopScheduler, justRun: Bool = false) {
        let post = mailbox.withLockedValue { box -> Bool in
            // The first window it joins: the update runs again there, so one that needs its
            // window (to present a sheet) finds it.
            if box.scheduler == nil, !justRun { box.changed = true }
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
        let follower = StateFollower(view: self) { update($0 as! Self) }
        followers.append(follower)
        follower.run()
        if let scheduler = host?.timers { follower.adopt(scheduler, justRun: true) }
        return self
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
