import Geometry
import Logging
import Physics
import Raster
import AppContract
import Scrolling
import Text
import Localization
@_spi(Hooks) import ViewCore
import Gestures
import Accessibility
@_spi(Hooks) import Widgets
import TextInput

/// The root of a screen and the `App` a frame loop drives (headless, DRM or remote): it lays
/// the view tree out at a scale factor, keeps track of the views that animate, draws what the
/// damage planner says changed, hands input to the touch router and the focus navigator, and
/// reports its state.
public final class Window: App, ViewHost {
    /// The view tree's root, laid out to fill the window.
    public let root: View
    /// The fonts every view draws text with.
    public let typography: Typography
    /// Pixels per point.
    public let scaleFactor: Double
    /// The window's width in pixels, rotation applied.
    public internal(set) var pixelWidth: Int
    /// The window's height in pixels, rotation applied.
    public internal(set) var pixelHeight: Int
    /// The look of the app in the light scheme: the colours of `Color.primaryText` and the
    /// other roles. `Theme.light` by default.
    public var lightTheme = Theme.light { didSet { themeChanged() } }
    /// The look of the app in the dark scheme. `Theme.dark` by default.
    public var darkTheme = Theme.dark { didSet { themeChanged() } }
    /// `colorScheme` as observable state, so that a control bound to it (the catalog's Dark
    /// switch) follows a change made elsewhere: the command line, the config, a schedule.
    let scheme = ObservedScheme()

    /// Turns the window dark between two times of day and light again after, on the wall
    /// clock's local time, checked every minute; nil (the default): `colorScheme` stays as set.
    public var colorSchedule: ColorSchedule? {
        didSet {
            scheduleTimer?.cancel()
            scheduleTimer = nil
            guard let colorSchedule else { return }
            colorScheme = colorSchedule.scheme(atMinuteOfDay: minuteOfDay())
            scheduleTimer = every(60) { [unowned self] in colorScheme = colorSchedule.scheme(atMinuteOfDay: minuteOfDay()) }
        }
    }
    var scheduleTimer: LoopTimer?
    /// The wall clock's minutes since local midnight (a test gives its own).
    package var minuteOfDay: () -> Int = localMinuteOfDay

    package internal(set) var environmentGeneration = 0
    /// The app's language, as a language tag ("ar", "de-CH"): the string catalog's strings, the
    /// built-in views' words ("Back", "Page 3 of 7"), numbers and plurals follow it, in place,
    /// from the next frame. While `followsLanguageDirection`, the layout direction follows too.
    public var language = "en" {
        didSet { if followsLanguageDirection { layoutDirection = LayoutDirection(language: language) }; themeChanged() }
    }
    /// The app's translations (`Localizable.xcstrings`): what labels, buttons, titles and alerts
    /// written with a string literal show in `language`. Empty: the literals as written.
    public var stringCatalog = StringCatalog() { didSet { themeChanged() } }
    /// Which digits numbers are written in: the language's (`.standard`), or Latin (`.latin`).
    public var digits = LocaleFormats.Digits.standard { didSet { themeChanged() } }

    /// Which way the app lays out: rows, padding, carousels, page controls and navigation
    /// mirror in `.rightToLeft`. Left to right by default; `LayoutDirection(language:)` gives
    /// the one a language's readers expect (the board's `layout_direction = auto`). Changed at
    /// run time, scroll views keep their place (the same row or page stays on screen).
    public var layoutDirection = LayoutDirection.leftToRight { didSet { themeChanged() } }
    /// Whether a change of `language` sets `layoutDirection` to the one its readers expect
    /// (the board's `layout_direction = auto`); false leaves the direction as the app set it.
    public var followsLanguageDirection = false

    /// The time of the latest frame or input, seconds.
    package internal(set) var currentTime = 0.0
    /// The view keys and the keypad act on (a focused text field, a list row), if any.
    public var focusedView: View? {
        // A data change may have rebuilt it (a lazy list's rows): the view with its id now.
        navigator.dropIfGone()
        return navigator.focused
    }
    /// The object that built this window and handles its callbacks (an app controller); the
    /// window keeps it alive as long as it is shown.
    package var controller: AnyObject?

    /// Points a finger may move before a touch is a drag rather than a tap: one value for the
    /// whole window, given to every scroll view's engine and to every control.
    package var touchSlop: Double {
        get { router.gestures.touchSlop }
        set { router.gestures.touchSlop = newValue; needsCollect = true }
    }
    package static let defaultTouchSlop = GestureSettings().touchSlop
    /// How every scroll view draws a dragging finger: resampled at the frame time between the
    /// digitizer's samples, so a steady drag moves the same distance every frame whatever the
    /// panel's report rate (nil: the newest sample, which judders). Frames should be rendered
    /// at the time they are presented.
    package var touchResampling: TouchResampling? = TouchResampling() { didSet { needsCollect = true } }
    /// Seconds an input event may arrive after its own time and still count at that time.
    static let maximumInputLag = 0.1

    /// Scroll frames move the pixels already drawn and draw only what was exposed.
    /// The result equals a full redraw; off, every moved viewport is redrawn.
    package var reusesScrolledPixels: Bool {
        get { planner.reusesScrolledPixels }
        set { planner.reusesScrolledPixels = newValue }
    }

    package var needsLayout = true
    /// Views were added or removed without a layout (a lazy list built rows): the animated
    /// views are collected again before the next frame or input.
    var needsCollect = false
    var fullDamage = true
    var pendingDamage = Region()
    var invalidatedViews: [View] = []
    var frameScheduled = true
    /// The views that asked for a layout or a redraw while the audit watches a screen that does
    /// not come to rest; nil the rest of the time, when asking keeps no record.
    var frameAskers: [View]?
    package let rasterCache: RasterCache
    package internal(set) var scrollViews: [ScrollingContainer] = []
    var animatedViews: [AnimatedView] = []
    package let holder: RootView
    /// Holds alerts, dialogs and sheets over the app while any shows.
    let modalLayer = ModalLayer()

    /// Seconds without a touch, key or pointer before the app returns to its start for the next
    /// visitor (an attract screen): `onIdleReset` runs, then, unless it returned true, every
    /// alert, dialog and sheet is cancelled, every navigation stack goes back to its first screen
    /// and every scroll view back to its start and its smallest zoom, animated. 0 (the default):
    /// never. The board config's `idle_reset_seconds` sets it; values below 0 or not a number
    /// count as 0.
    public var idleResetSeconds = 0.0 {
        didSet {
            if !idleResetSeconds.isFinite || idleResetSeconds < 0 { idleResetSeconds = 0 }
            armIdleReset()
        }
    }
    /// Runs at the idle reset, before anything returns to its start; return true when the app
    /// reset itself and the rest should stay as it is.
    public var onIdleReset: (() -> Bool)?
    /// Runs when the panel goes off (false) and comes on again (true): outside the board's
    /// `display_schedule` hours, after `idle_blank_seconds`, or by the remote API. An app may
    /// pause what nobody sees (a video, polling for news) and refresh when it is back.
    public var onDisplayPower: ((Bool) -> Void)?
    /// Seconds before the idle reset at which `onIdleResetWarning` runs, so the app can ask
    /// whether the person needs more time ("Still there?"): any input then counts as an
    /// answer and the wait starts again (WCAG 2.2.1, the EAA's "enough time"). 0 (the default):
    /// no warning; values below 0, not a number, or not below `idleResetSeconds` count as 0.
    public var idleResetWarningSeconds = 0.0 {
        didSet {
            if !idleResetWarningSeconds.isFinite || idleResetWarningSeconds < 0 { idleResetWarningSeconds = 0 }
            armIdleReset()
        }
    }
    /// Runs `idleResetWarningSeconds` before the idle reset: show the person that time runs
    /// out, and a way to ask for more (a touch, a key).
    public var onIdleResetWarning: (() -> Void)? { didSet { armIdleReset() } }
    /// True when the idle reset is announced first: `audit` checks it.
    package var warnsBeforeIdleReset: Bool {
        onIdleResetWarning != nil && idleResetWarningSeconds > 0 && idleResetWarningSeconds < idleResetSeconds
    }
    /// The latest input's time, and the timers that check for the idle reset and its warning.
    var lastInputTime = 0.0
    var idleResetTimer: LoopTimer?
    /// Idle resets so far (a fleet's metrics count them).
    package internal(set) var idleResets = 0
    var idleWarningTimer: LoopTimer?
    /// The layout of the on-screen keyboard (`en`, `de`, `fr`, `es`, `it`, `pt`, `nl`, `pl`, `tr`,
    /// `ru`, `uk`, `el`, `ja`, `ar`, `he`, `fa`, `number`, `pin`; a board sets it from
    /// `keyboard_layout`); a field may ask for another.
    public var keyboardLayout = "en"
    /// When the on-screen keyboard shows (`onscreen_keyboard` on a board).
    public var onScreenKeyboard = OnScreenKeyboardMode.automatic
    /// A physical keyboard is attached (a board tells from its input devices): in the
    /// automatic mode, the on-screen keyboard then stays away.
    package var hasHardwareKeyboard = false { didSet { if hasHardwareKeyboard != oldValue { keyboardHost.hardwareKeyboardChanged() } } }
    let keyboardHost = KeyboardHost()
    /// Where the screen reader's speech goes (a WAV headless, the sound card on a board).
    package var speech: SpeechOutput?
    /// The screen reader: touches explore and speak instead of acting; a double tap
    /// activates what was said last.
    public var isScreenReaderEnabled = false {
        didSet {
            if !isScreenReaderEnabled { screenReader.turnedOff() }
            router.screenReader = isScreenReaderEnabled ? screenReader : nil
            scheduleFrame()
        }
    }
    private(set) lazy var screenReader = ScreenReader(window: self)
    /// The keypad's keys for the screen reader (`keypad` on a board).
    package var keypadMapping = KeypadMapping.standard
    /// Text size for the whole app, like Dynamic Type: 1 (100 %) to 3 (300 %). Every
    /// label and field draws at its size times this; layouts adapt (stacks measure again,
    /// labels wrap or end with an ellipsis).
    public var textScale = 1.0 {
        didSet {
            let clamped = textScale.isFinite ? min(3, max(1, textScale)) : 1
            if clamped != textScale { textScale = clamped; return }
            if textScale != oldValue { needsLayout = true; fullDamage = true; frameScheduled = true }
        }
    }
    /// High contrast, a variant of the theme in force (`Theme.highContrast()`): text black or
    /// white, light backgrounds white, borders black (white in the dark scheme) and at least 2
    /// points, the focus ring black (white).
    public var isHighContrast = false { didSet { environmentChanged(); fullDamage = true; frameScheduled = true } }
    let planner = DamagePlanner()
    lazy var router = TouchRouter(root: holder, timers: timers)
    lazy var navigator: FocusNavigator = {
        let navigator = FocusNavigator(root: root, timers: timers)
        navigator.onFocus = { [unowned self] view, changed in
            scheduleFrame()
            if changed { keyboardHost.focusChanged(to: view, at: time) }
        }
        navigator.screenReaderKey = { [unowned self] key, t in screenReader.key(key, mapping: keypadMapping, time: t) }
        navigator.onBack = { [unowned self] in navigateBack() }
        navigator.onEscape = { [unowned self] in cancelPresentedModal() }
        return navigator
    }()

    /// - Parameters: size in pixels, scale factor (pixels per point), the fonts, and the root
    ///   view, which fills the window.
    public init(width: Int, height: Int, scaleFactor: Double = 1, typography: Typography, root: View) {
        pixelWidth = max(1, width); pixelHeight = max(1, height)
        self.scaleFactor = scaleFactor.isFinite && scaleFactor > 0 ? scaleFactor : 1
        self.typography = typography
        self.root = root
        let cache = RasterCache()
        rasterCache = cache
        images = ImageStore(cache: cache)
        holder = RootView()
        holder.windowHost = self
        holder.add(root)
        keyboardHost.window = self
        applyMemoryBudget()
        images.onFailure = { [weak self] source, reason in
            self?.log.warning("picture '\(source)' cannot be shown (its placeholder is): \(reason)")
        }
        typography.changeObservers.append { [weak self] in
            guard let self else { return }
            needsLayout = true; fullDamage = true; frameScheduled = true
        }
    }

    // MARK: Memory (issue 13)

    /// The pictures of `ImageView(source:)`, decoded and released within the memory budget.
    package let images: ImageStore
    package static let defaultMemoryBudget = 192 << 20
    /// Bytes the window's caches may hold beyond what the screen shows: the halved copies of
    /// reduced pictures get a quarter (at most 32 MB), decoded pictures the rest. The board
    /// sets it from `memory_budget_mb`.
    public var memoryBudget = Window.defaultMemoryBudget { didSet { applyMemoryBudget() } }

    // MARK: Timers and work from other threads

    /// The window's timers and posted work, run by the loop on its clock.
    package let timers = LoopScheduler()
    package var scheduler: LoopScheduler? { timers }

    /// The window's size in points: its pixels divided by the scale factor.
    public var sizeInPoints: Size { Size(width: Double(pixelWidth) / scaleFactor, height: Double(pixelHeight) / scaleFactor) }

    /// Where the window reports what an app developer should know (a view laid out with no
    /// room for its content); the process's log unless set.
    package var log = processLog
    /// The layouts said to be wrong so far, with the views they are about (at most 100).
    package var layoutProblems: [LayoutProblem] = []

    /// Threads drawing a frame's damage in horizontal bands (`render_threads`). With more than
    /// one, the frame is recorded on the calling thread and the bands replay it at once on
    /// Dispatch's workers: views' `draw(in:)` still runs on the calling thread only, and the
    /// pixels equal one thread's, bit for bit. Code that writes pixels itself must do it
    /// through `Canvas.drawPixels(_:)`. At most `BandRenderer.threadLimit` are used.
    package var renderThreads = 1

    let displayList = DisplayList()
    var bands: BandRenderer?
    /// Views with property animations or transitions running, redrawn each frame until they end.
    var animating: [View] = []
    /// The animation of the next layout's moves, and the views coming in by their transitions.
    var layoutAnimation: Animation?
    var entering: [View] = []
}
