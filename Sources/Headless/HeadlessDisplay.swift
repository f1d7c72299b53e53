import Geometry
import Raster
import Runtime

/// A display in memory (wlroots' headless backend is the model): `present` copies only the
/// damaged rectangles into the screen buffer, exactly as the DRM display copies into its scanout
/// buffer, so a wrong damage region shows up as wrong pixels on this screen too.
public final class HeadlessDisplay: Display {
    public let canvasWidth: Int
    public let canvasHeight: Int
    /// What a person would see now.
    public let screen: PixelBuffer
    public private(set) var presentedFrames = 0

    public init(width: Int, height: Int) {
        canvasWidth = width; canvasHeight = height
        screen = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: 0xFF00_0000))
    }

    public func present(_ frame: PixelBuffer, damage: Region) throws {
        precondition(frame.width == canvasWidth && frame.height == canvasHeight)
        for r in damage.rects { screen.span.copy(from: frame.span, sourceRect: r, toX: r.x, y: r.y) }
        presentedFrames += 1
    }
}
