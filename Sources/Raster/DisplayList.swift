import Geometry

/// A frame's drawing kept as operations, to be drawn later in pieces: a window records its
/// damage once on its own thread, then horizontal bands of the frame replay the list at once
/// on several threads, each through its own canvas and raster cache. Every operation keeps the
/// clip, rounded clips and translation it was recorded with; a replay only narrows the clip,
/// and the rasteriser gives a pixel the same value whatever the clip, so the bands together
/// equal drawing directly, bit for bit.
///
/// What an operation holds is read, never written, while bands replay: pictures, glyph masks,
/// paths and rounded-clip shapes are values or are finished when recorded. A `drawPixels`
/// function is called once per band that its clip reaches, possibly on another thread.
package final class DisplayList {
    enum Operation {
        case clear(PremultipliedColor)
        case fillRect(Rect, PremultipliedColor)
        case fillRoundedRect(Rect, radius: Double, PremultipliedColor)
        case strokeRoundedRect(Rect, radius: Double, lineWidth: Double, PremultipliedColor, StrokeAlignment)
        case fillCircle(Point, radius: Double, PremultipliedColor)
        case fillPath(Path, FillRule, PremultipliedColor, tolerance: Double)
        case strokePath(Path, lineWidth: Double, PremultipliedColor, roundCaps: Bool, tolerance: Double)
        case blend(AlphaMask, x: Int, y: Int, PremultipliedColor)
        case image(PixelBuffer, Rect, ImageFilter, opacity: Double, extendingEdges: Bool)
        case turnedImage(PixelBuffer, degrees: Double, center: Point, opacity: Double)
        case pixels((PixelSpan, IntRect) -> Void)
    }

    private(set) var entries: [(state: Canvas.State, operation: Operation)] = []

    package init() {}

    /// Operations recorded since the last `removeAll()`.
    package var count: Int { entries.count }

    /// Forgets the operations and what they hold; the storage is kept for the next frame.
    package func removeAll() { entries.removeAll(keepingCapacity: true) }

    func append(_ operation: Operation, in state: Canvas.State) {
        if !state.clip.isEmpty { entries.append((state, operation)) }
    }

    /// Draws every operation through `canvas` (which draws directly), each clipped to the
    /// canvas's clip as well as its own.
    package func replay(on canvas: Canvas) {
        var c = canvas.drawingDirectly
        let limit = canvas.state.clip
        for entry in entries {
            c.state = entry.state
            c.state.clip = entry.state.clip.intersection(limit)
            if c.state.clip.isEmpty { continue }
            c.rasterise(entry.operation)
        }
    }
}
