import Geometry
import Raster

/// Panel rotation for portrait kiosks: the app draws an upright canvas and the display turns it
/// when copying to the scanout buffer; touches are turned back the same way.
package enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270

    /// The canvas size the app draws for a panel of `panel` pixels.
    package func canvasSize(panelWidth: Int, panelHeight: Int) -> (width: Int, height: Int) {
        switch self {
        case .none, .upsideDown: return (panelWidth, panelHeight)
        case .clockwise90, .clockwise270: return (panelHeight, panelWidth)
        }
    }

    /// Maps a point on the panel (pixels, as the touchscreen reports it after calibration) to
    /// the upright canvas. The canvas is turned clockwise by `self` onto the panel.
    package func canvasPoint(fromPanel p: Point, panelWidth w: Double, panelHeight h: Double) -> Point {
        switch self {
        case .none: return p
        case .clockwise90: return Point(x: p.y, y: w - p.x)
        case .upsideDown: return Point(x: w - p.x, y: h - p.y)
        case .clockwise270: return Point(x: h - p.y, y: p.x)
        }
    }

    /// The inverse of `canvasPoint(fromPanel:)`: where on the panel a canvas point lies.
    package func panelPoint(fromCanvas p: Point, panelWidth w: Double, panelHeight h: Double) -> Point {
        switch self {
        case .none: return p
        case .clockwise90: return Point(x: w - p.y, y: p.x)
        case .upsideDown: return Point(x: w - p.x, y: h - p.y)
        case .clockwise270: return Point(x: p.y, y: h - p.x)
        }
    }

    /// The panel pixel that shows canvas pixel (x, y) (integer pixel centres).
    package func panelPixel(canvasX x: Int, canvasY y: Int, canvasWidth cw: Int, canvasHeight ch: Int) -> (x: Int, y: Int) {
        switch self {
        case .none: return (x, y)
        case .clockwise90: return (ch - 1 - y, x)
        case .upsideDown: return (cw - 1 - x, ch - 1 - y)
        case .clockwise270: return (y, cw - 1 - x)
        }
    }
}

/// Where frames go: a DRM/KMS output on a board, memory when headless. The app draws into its
/// own shadow buffer (ordinary memory) and hands it over with the damage; the display copies only
/// the damaged rectangles, rotating if configured, and queues the frame.
package protocol Display: AnyObject {
    /// The size of the canvas the app draws, in pixels, rotation applied.
    var canvasWidth: Int { get }
    var canvasHeight: Int { get }
    /// Copies `damage` of `frame` to the screen and queues it for display.
    func present(_ frame: PixelBuffer, damage: Region) throws
    /// `present` for a frame that is the first to show input with these times (on the clock
    /// of the display's own timestamps): a display that learns when frames reach the panel
    /// measures input-to-flip latency with them.
    func present(_ frame: PixelBuffer, damage: Region, inputTimes: [Double]) throws
}

extension Display {
    package func present(_ frame: PixelBuffer, damage: Region, inputTimes: [Double]) throws {
        try present(frame, damage: damage)
    }
}
