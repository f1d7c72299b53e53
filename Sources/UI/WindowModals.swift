@_spi(Hooks) import ViewCore
import Geometry

/// The layer over the app that holds the modal views, newest on top; in the window's holder
/// only while one shows, under the keyboard and the edit menu.
final class ModalLayer: View {
    override var backdrop: Backdrop { .none }
    var modals: [ModalContent] { children.compactMap { $0 as? ModalContent } }
}

extension Window {
    /// The modal view on top, if any shows.
    package var presentedModal: ModalContent? { modalLayer.modals.last }

    package func present(_ modal: ModalContent) {
        if modalLayer.parent == nil { holder.insert(modalLayer, at: 1) }
        modalLayer.add(modal)
        // Focus and the screen reader start afresh inside it; touches under way end.
        focus(nil)
        navigator.scope = modal
        screenReader.modalChanged()
        treeChanged()
        needsLayout = true
        invalidate(modalLayer)
    }

    package func dismiss(_ modal: ModalContent) {
        guard modal.parent === modalLayer else { return }
        invalidate(modalLayer)
        if navigator.focused.map({ $0.selfAndAncestors.contains { $0 === modal } }) == true { focus(nil) }
        modal.removeFromParent()
        if modalLayer.children.isEmpty { modalLayer.removeFromParent() }
        navigator.scope = presentedModal
        screenReader.modalChanged()
        treeChanged()
        needsLayout = true
    }

    /// Closes each modal whose presenter left the window (an idle reset popped the screen that
    /// showed it): its binding is set back to false as it goes, and no button's action runs.
    func closeOrphanedModals() {
        for modal in modalLayer.modals where modal.isOrphaned { modal.close() }
    }

    /// Esc closes the modal on top, as its cancel button would.
    func cancelPresentedModal() -> Bool {
        guard let modal = presentedModal else { return false }
        modal.cancel()
        return true
    }

    /// The layers the screen reader and the state's elements read: the modal on top alone
    /// while one shows.
    package var readableLayers: [View] {
        if let modal = presentedModal { return [modal] }
        return holder.children.filter { $0 !== keyboardHost.keyboard }
    }
}
