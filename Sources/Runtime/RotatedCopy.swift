import Geometry
import Raster

extension Rotation {
    /// The panel rectangle that shows canvas rectangle `r` (canvas `cw` x `ch`).
    package func panelRect(canvasRect r: IntRect, canvasWidth cw: Int, canvasHeight ch: Int) -> IntRect {
        switch self {
        case .none: return r
        case .clockwise90: return IntRect(x: ch - r.maxY, y: r.x, width: r.height, height: r.width)
        case .upsideDown: return IntRect(x: cw - r.maxX, y: ch - r.maxY, width: r.width, height: r.height)
        case .clockwise270: return IntRect(x: r.y, y: cw - r.maxX, width: r.height, height: r.width)
        }
    }
}

/// Copies the damaged rectangles of the canvas `source` into the panel buffer `destination`, turned
/// by `rotation` (portrait kiosks). Writes each destination row left to right and never reads the
/// destination: dumb buffers are write-combined memory, slow to read. `destination` must be the
/// panel size (`rotation.canvasSize` of it equals the source size). The panel's rows are split
/// between `bands`' threads: a frame redrawn in bands is copied in bands too.
package func copyDamage(
    from source: PixelSpan, to destination: PixelSpan, region: Region, rotation: Rotation,
    bands: BandRenderer
) {
    let cw = source.width, ch = source.height
    let panel = rotation.canvasSize(panelWidth: destination.width, panelHeight: destination.height)
    precondition(panel.width == cw && panel.height == ch, "panel buffer does not match the canvas size")
    // Disjoint canvas rectangles turn into disjoint panel rectangles: no two bands write one pixel.
    let pieces = region.rects.lazy.map { r in
        rotation.panelRect(canvasRect: r.intersection(source.bounds), canvasWidth: cw, canvasHeight: ch)
    }
    bands.draw(pieces: pieces) { p in copyRect(source, destination, panel: p, rotation: rotation) }
}

/// Copies the canvas pixels that panel rectangle `p` shows.
@inline(__always)
private func copyRect(_ src: PixelSpan, _ dst: PixelSpan, panel p: IntRect, rotation: Rotation) {
    let cw = src.width, ch = src.height
    let sstride = src.stride
    switch rotation {
    case .none:
        for y in p.y..<p.maxY {
            (dst.row(y) + p.x).update(from: src.row(y) + p.x, count: p.width)
        }
    case .upsideDown:
        for py in p.y..<p.maxY {
            let out = dst.row(py)
            let inRow = src.row(ch - 1 - py)
            for px in p.x..<p.maxX { out[px] = inRow[cw - 1 - px] }
        }
    case .clockwise90:
        // panel (px, py) shows canvas (py, ch - 1 - px)
        for py in p.y..<p.maxY {
            let out = dst.row(py)
            let column = src.base + py
            for px in p.x..<p.maxX { out[px] = column[(ch - 1 - px) * sstride] }
        }
    case .clockwise270:
        // panel (px, py) shows canvas (cw - 1 - py, px)
        for py in p.y..<p.maxY {
            let out = dst.row(py)
            let column = src.base + (cw - 1 - py)
            for px in p.x..<p.maxX { out[px] = column[px * sstride] }
        }
    }
}
