import Geometry
import Raster
import Runtime

/// A display in memory (wlroots' headless backend is the model): `present` copies only the
/// damaged rectangles into the screen buffer, exactly as the DRM display copies into its scanout
/// buffer, so a wrong damage region shows up as wrong pixels on this screen too.
package final class HeadlessDisplay: FrameOutput {
    package let canvasWidth: Int
    package let canvasHeight: Int
    /// What a person would see now.
    package let screen: PixelBuffer
    package private(set) var presentedFrames = 0

    /// The rate a real-time headless loop paces its frames at.
    package let refreshHz: Double
    package var canPresent: Bool { true }
    package var isShowing: Bool { true }
    package var rotation: Rotation { .none }
    package func screen(shadow: PixelBuffer) -> PixelBuffer { screen }
    /// The screen buffer itself (which the damage of each frame was copied into).
    package func readBack() throws -> PixelBuffer { PixelBuffer(copying: screen.span) }

    package init(width: Int, height: Int, refreshHz: Double = 60) {
        canvasWidth = width; canvasHeight = height
        self.refreshHz = refreshHz.isFinite && refreshHz >= 1 ? refreshHz : 60
        screen = PixelBuffer(width: width, height: height, fill: PremultipliedColor(argb: 0xFF00_0000))
    }

    /// The bands a frame's damage is copied in (the runtime gives the window's, so a frame
    /// drawn on every core is not then copied on one).
    package var copyBands = BandRenderer(threads: 1)

    package func present(_ frame: PixelBuffer, damage: Region) throws {
        precondition(frame.width == canvasWidth && frame.height == canvasHeight)
        let screen = self.screen
        // The region's rectangles are disjoint, so no two bands write one pixel.
        copyBands.draw(pieces: damage.rects) { r in screen.span.copy(from: frame.span, sourceRect: r, toX: r.x, y: r.y) }
        presentedFrames += 1
    }
}
