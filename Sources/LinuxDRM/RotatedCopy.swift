import Geometry
import Raster
import Runtime

extension Rotation {
    /// The panel rectangle that shows canvas rectangle `r` (canvas `cw` x `ch`).
    public func panelRect(canvasRect r: IntRect, canvasWidth cw: Int, canvasHeight ch: Int) -> IntRect {
        switch self {
        case .none: return r
        case .clockwise90: return IntRect(x: ch - r.maxY, y: r.x, width: r.height, height: r.width)
        case .upsideDown: return IntRect(x: cw - r.maxX, y: ch - r.maxY, width: r.width, height: r.height)
        case .clockwise270: return IntRect(x: r.y, y: cw - r.maxX, width: r.height, height: r.width)
        }
    }
}

/// Copies the damaged rectangles of the canvas `source` into the panel buffer `destination`,
/// turned by `rotation` (OUT-2). Writes each destination row left to right and never reads the
/// destination: dumb buffers are write-combined memory (STYLE S5). `destination` must be the
/// panel size (`rotation.canvasSize` of it equals the source size). With `bands`, the panel's
/// rows are split between its threads: a frame redrawn in bands is copied in bands too, where
/// one core copying a whole screen would take a quarter of a zoom frame.
public func copyDamage(from source: PixelSpan, to destination: PixelSpan, region: Region, rotation: Rotation,
                       bands: BandRenderer? = nil) {
    let cw = source.width, ch = source.height
    let panel = rotation.canvasSize(panelWidth: destination.width, panelHeight: destination.height)
    precondition(panel.width == cw && panel.height == ch, "panel buffer does not match the canvas size")
    func forEachPiece(_ body: (_ canvas: IntRect, _ panel: IntRect) -> Void) {
        for damaged in region.rects {
            let r = damaged.intersection(source.bounds)
            if !r.isEmpty { body(r, rotation.panelRect(canvasRect: r, canvasWidth: cw, canvasHeight: ch)) }
        }
    }
    guard let bands, bands.threads > 1 else {
        forEachPiece { r, p in copyRect(source, destination, canvas: r, panel: p, rows: p.y..<p.maxY, rotation: rotation) }
        return
    }
    var top = Int.max, bottom = Int.min
    forEachPiece { _, p in top = min(top, p.y); bottom = max(bottom, p.maxY) }
    guard top < bottom else { return }
    // The region's rectangles are disjoint, so no two bands write one pixel.
    bands.draw(rows: top..<bottom) { _, band, _ in
        forEachPiece { r, p in
            let top = max(p.y, band.lowerBound), bottom = min(p.maxY, band.upperBound)
            if top < bottom { copyRect(source, destination, canvas: r, panel: p, rows: top..<bottom, rotation: rotation) }
        }
    }
}

@inline(__always)
private func copyRect(_ src: PixelSpan, _ dst: PixelSpan, canvas r: IntRect, panel p: IntRect, rows: Range<Int>,
                      rotation: Rotation) {
    let cw = src.width, ch = src.height
    let sstride = src.stride
    switch rotation {
    case .none:
        for y in rows {
            (dst.row(y) + r.x).update(from: src.row(y) + r.x, count: r.width)
        }
    case .upsideDown:
        for py in rows {
            let out = dst.row(py)
            let inRow = src.row(ch - 1 - py)
            for px in p.x..<p.maxX { out[px] = inRow[cw - 1 - px] }
        }
    case .clockwise90:
        // panel (px, py) shows canvas (py, ch - 1 - px)
        for py in rows {
            let out = dst.row(py)
            let column = src.base + py
            for px in p.x..<p.maxX { out[px] = column[(ch - 1 - px) * sstride] }
        }
    case .clockwise270:
        // panel (px, py) shows canvas (cw - 1 - py, px)
        for py in rows {
            let out = dst.row(py)
            let column = src.base + (cw - 1 - py)
            for px in p.x..<p.maxX { out[px] = column[px * sstride] }
        }
    }
}
