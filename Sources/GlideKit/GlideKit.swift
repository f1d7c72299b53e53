// Glide as one import for app developers: views, scroll view, page control, the engine's
// configuration, timers, custom drawing, and the runtime that runs an app on a board, headless
// or under remote control (`Kiosk.run`). `import GlideKit` is all an app needs; the modules'
// machinery (the frame loop, the devices, the headless runner) has package access only.
@_exported import Geometry
@_exported import Raster
@_exported import AppContract
@_exported import Scrolling
@_exported import ViewCore
@_exported import Gestures
@_exported import Accessibility
@_exported import Widgets
@_exported import Video
@_exported import Controls
@_exported import Audit
@_exported import TextInput
@_exported import UI
@_exported import KioskRuntime
@_exported import Logging
@_exported import Text
@_exported import ImageCodecs
@_exported import TextEditing
@_exported import Localization
