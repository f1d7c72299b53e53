@_spi(Hooks) import ViewCore
import AppContract
import Geometry

/// The idle reset: a kiosk left alone returns to its start for the next visitor.
extension Window {
    /// Input came at `t`: the idle reset counts from here. One timer at a time: when it fires
    /// early (input came since it was armed) it waits out the rest.
    func inputArrived(at t: Double) {
        lastInputTime = t
        if idleResetTimer == nil { armIdleReset() }
    }

    func armIdleReset() {
        idleResetTimer?.cancel()
        idleResetTimer = nil
        idleWarningTimer?.cancel()
        idleWarningTimer = nil
        guard idleResetSeconds > 0 else { return }
        let due = max(0, lastInputTime + idleResetSeconds - time)
        idleResetTimer = timers.after(due) { [weak self] in self?.idleResetDue() }
        armIdleWarning()
    }

    /// Like the reset's, the warning's timer waits out the rest when input came since it was armed.
    private func armIdleWarning() {
        idleWarningTimer?.cancel()
        idleWarningTimer = nil
        guard warnsBeforeIdleReset else { return }
        let due = lastInputTime + idleResetSeconds - idleResetWarningSeconds - time
        guard due >= -1e-9 else { return }
        idleWarningTimer = timers.after(max(0, due)) { [weak self] in self?.idleWarningDue() }
    }

    private func idleWarningDue() {
        idleWarningTimer = nil
        if time - lastInputTime + 1e-9 < idleResetSeconds - idleResetWarningSeconds { return armIdleWarning() }
        onIdleResetWarning?()
    }

    private func idleResetDue() {
        idleResetTimer = nil
        guard idleResetSeconds > 0 else { return }
        if time - lastInputTime + 1e-9 < idleResetSeconds {
            armIdleReset()
            return
        }
        idleResets += 1
        resetForNextVisitor()
    }

    /// Everything back to its start: the app's hook first, which may keep the rest as it is.
    package func resetForNextVisitor() {
        if onIdleReset?() == true { return }
        for modal in modalLayer.modals.reversed() { modal.cancel() }
        focus(nil)
        layoutIfNeeded()
        for case let stack as BackNavigating in animatedViews { stack.goBackToStart() }
        // The first screens are back in the tree: their scroll views are reset too.
        layoutIfNeeded()
        let t = time
        for sv in scrollViews { sv.returnToStart(at: t) }
        scheduleFrame()
    }
}
