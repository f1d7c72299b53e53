// The glyph cache: one `GlyphTable` per (face, pixel size), indexed by glyph id.
//
// The key (face, glyph id, pixel size) is resolved in two steps so that the per-glyph
// lookup is an array index: a `Font` resolves its faces' tables once when it is made, and
// drawing then indexes `slots[glyphID]`. No allocation on a cache hit.
import Raster

/// A rasterised glyph: its coverage mask and the offset of the mask's top-left corner from
/// the glyph origin (FreeType's `bitmap_left`, `bitmap_top`: x to the right, top upwards).
package struct CachedGlyph: Sendable {
    package let mask: AlphaMask
    /// Pixels from the pen position to the mask's left edge.
    package let left: Int32
    /// Pixels from the baseline up to the mask's top edge.
    package let top: Int32
    /// A colour glyph's own pixels (an emoji), premultiplied, drawn instead of the (then empty)
    /// mask; nil: the mask is drawn in the text's colour.
    package let color: PixelBuffer?
    package init(mask: AlphaMask, left: Int32, top: Int32, color: PixelBuffer? = nil) {
        self.mask = mask; self.left = left; self.top = top; self.color = color
    }
    static let empty = CachedGlyph(mask: AlphaMask(width: 0, height: 0), left: 0, top: 0)
}

/// The cached glyphs of one face at one pixel size. Glyphs are rasterised on first use and
/// kept for the life of the face (a kiosk app uses a handful of sizes; at 16 px the whole
/// Latin set is a few tens of kilobytes).
package final class GlyphTable {
    /// The face (weak: the face owns its tables). A table outliving its face gives empty glyphs.
    package private(set) weak var face: FontFace?
    /// The pixel size in 26.6 fixed point (16 px = 1024).
    package let size26_6: Int
    /// Index into `glyphs` per glyph id, or -1 when not yet rasterised.
    @usableFromInline var slots: [Int32]
    /// Entry 0 is the empty glyph, used for glyph ids outside the font.
    @usableFromInline var glyphs: ContiguousArray<CachedGlyph> = [.empty]

    /// 26.6 units its outlines are emboldened by (0: drawn as the face has them).
    package let embolden: Int

    /// What a face keeps one table for.
    struct Key: Hashable {
        var size26_6: Int
        var embolden: Int
    }

    init(face: FontFace, size26_6: Int, embolden: Int = 0) {
        self.face = face
        self.size26_6 = size26_6
        self.embolden = embolden
        self.slots = [Int32](repeating: -1, count: max(1, face.glyphCount))
        bytes = slots.count * 4
    }

    /// Number of glyphs rasterised so far.
    package var count: Int { glyphs.count - 1 }
    /// Bytes of the slot table and the rasterised masks.
    package private(set) var bytes = 0

    /// Index of the cached glyph in `glyphs`, rasterising it on a miss. Glyph ids outside
    /// the font give entry 0, an empty mask.
    @inlinable
    func slot(for glyph: UInt32) -> Int {
        let g = Int(glyph)
        if g < slots.count {
            let s = slots[g]
            if s >= 0 { return Int(s) }
        }
        return fill(glyph)
    }

    @usableFromInline
    func fill(_ glyph: UInt32) -> Int {
        let g = Int(glyph)
        guard g < slots.count, let face else { return 0 }
        let cached = face.rasterize(glyph: glyph, size26_6: size26_6, embolden: embolden)
        glyphs.append(cached)
        bytes += (cached.color.map { $0.width * $0.height * 4 } ?? cached.mask.coverage.count) + MemoryLayout<CachedGlyph>.stride
        slots[g] = Int32(glyphs.count - 1)
        return glyphs.count - 1
    }

    /// Rasterises the glyphs of `glyphs` that are not cached yet, so that afterwards every
    /// glyph id below `slots.count` in it has a slot.
    func ensureCached(_ glyphs: ArraySlice<TextLayout.Glyph>) {
        for g in glyphs {
            let id = Int(g.glyph)
            if id >= slots.count { continue }
            if slots[id] < 0 { _ = fill(g.glyph) }
        }
    }

    /// Calls `body` with the slot table and the entries as buffer pointers. Callers check
    /// glyph ids against the slot count before indexing.
    @inline(__always)
    func withEntries<R>(_ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<CachedGlyph>) -> R) -> R {
        slots.withUnsafeBufferPointer { s in glyphs.withUnsafeBufferPointer { e in body(s, e) } }
    }

    /// The cached glyph (rasterised on first use).
    package func glyph(_ glyph: UInt32) -> CachedGlyph { glyphs[slot(for: glyph)] }
}
