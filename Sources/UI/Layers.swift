// The window sits on the UI core's layers and hands all of them to apps and to GlideKit as
// one module, so `import UI` (and `import GlideKit`) see what they saw before the split.
@_exported import ViewCore
@_exported import Gestures
@_exported import Accessibility
@_exported import Widgets
@_exported import TextInput
