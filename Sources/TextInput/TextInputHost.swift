import Gestures
@_spi(Hooks) import Widgets
import Localization
import AppContract
import Geometry
import TextEditing
@_spi(Hooks) import ViewCore

/// What fields, the on-screen keyboard and the edit menu need of the window beyond what every
/// view does: the pasteboard, the edit menu, the next field, timers, and the view the keys and
/// the menu are attached to. The window implements it in `UI`.
package protocol TextInputHost: ViewHost {
    /// Text cut or copied in this app.
    var pasteboard: String? { get set }
    /// The view over the app that the keys and the edit menu are attached to.
    var holder: RootView { get }
    /// Lays the tree out now if anything changed.
    func layoutIfNeeded()
    /// The keyboard's layout, content type or return key of `view` changed.
    func keyboardConfigurationChanged(for view: TextInputView)
    /// The selection of `view` changed: a menu shown for it goes.
    func editMenuChanged(for view: TextInputView)
    /// Shows the edit menu over `view`'s selection.
    func showEditMenu(for view: TextInputView)
    /// Focus goes to the next text input after `view`, or leaves when it was the last.
    func focusNextTextInput(after view: TextInputView)
}

extension View {
    /// The window holding this view, as text entry knows it.
    var window: TextInputHost? { host as? TextInputHost }
}

/// A field the on-screen keyboard types into (text fields and areas): the keyboard host knows
/// the focused view as one by this role.
package protocol KeyboardField: TextInputClient {
    /// The keyboard layout the field asks for; nil: the window's.
    var keyboardLayout: String? { get }
    var contentType: TextContentType { get }
    var submitLabel: SubmitLabel { get }
    /// Focus came or went: the caret blinks or stops, the selection goes.
    func focusChanged(focused: Bool)
    func deleteBackward()
    /// The return key: a new line in a text area, else the field's submit action.
    func submit()
    /// Replaces the character before the caret (a kana's dakuten).
    func transformCharacterBeforeCaret(_ f: (Character) -> Character?)
    /// Empties the field (a PIN pad's C).
    func clear()
}
