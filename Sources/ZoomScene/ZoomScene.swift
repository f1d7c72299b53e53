import Geometry
import Raster

/// The reference scene "zoom" (benchmark R2, ../shared/bench/zoom-scene.md): a photo pinched
/// from fitting the canvas to four times that, every canvas pixel resampled bilinearly from the
/// source, edges clamped. Pure: the picture and the pixels are passed in.
package struct ZoomScene {
    package let image: PixelBuffer
    package let width: Int, height: Int
    package let frames: Int

    /// Nil when the canvas or the picture is empty or there are fewer than two frames (the
    /// zoom of frame f is 1 + 3·f/(frames − 1)).
    package init?(image: PixelBuffer, width: Int, height: Int, frames: Int) {
        guard image.width > 0, image.height > 0, width > 0, height > 0, frames >= 2 else { return nil }
        self.image = image; self.width = width; self.height = height; self.frames = frames
    }

    /// Output pixels per source pixel in frame `f`.
    package func scale(frame f: Int) -> Double {
        let fit = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        return fit * (1 + 3 * Double(f) / Double(frames - 1))
    }

    /// Where the whole picture lands in frame `f`: its centre on the canvas centre.
    package func destination(frame f: Int) -> Rect {
        let s = scale(frame: f)
        let w = Double(image.width) * s, h = Double(image.height) * s
        return Rect(x: (Double(width) - w) / 2, y: (Double(height) - h) / 2, width: w, height: h)
    }

    /// Draws frame `f` into the rows `rows` of `span` (the whole canvas, `width` x `height`):
    /// bands of one frame may be drawn on different threads, each with its own cache.
    package func draw(frame f: Int, rows: Range<Int>? = nil, into span: PixelSpan, cache: RasterCache) {
        var canvas = Canvas(span: span, cache: cache)
        if let rows { canvas.clip(toDeviceRect: IntRect(x: 0, y: rows.lowerBound, width: span.width, height: rows.count)) }
        canvas.draw(image: image, in: destination(frame: f), filter: .bilinear, extendingEdges: true)
    }
}
