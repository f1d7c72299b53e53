// A font = a fallback chain of faces at one pixel size, plus shaping with HarfBuzz.
import CFreeType
import CHarfBuzz

/// How glyphs are placed. Glyph origins are always whole pixels (glyphs are rasterised
/// once per size, not per sub-pixel phase); these options choose what feeds the pen.
package struct TextOptions: Hashable, Sendable {
    /// Apply the font's kerning (HarfBuzz feature `kern`).
    package var kerning: Bool
    /// Apply standard ligatures (`liga`, `clig`), e.g. "fi" in DejaVu Sans.
    package var ligatures: Bool
    /// Round every advance to whole pixels before adding it to the pen (otherwise the pen
    /// accumulates 1/64 px and each glyph origin is rounded to the nearest pixel).
    package var wholePixelAdvances: Bool

    package init(kerning: Bool, ligatures: Bool, wholePixelAdvances: Bool) {
        self.kerning = kerning; self.ligatures = ligatures; self.wholePixelAdvances = wholePixelAdvances
    }
    /// UI text: kerning and ligatures, whole-pixel advances (crisp and stable while scrolling).
    package static let ui = TextOptions(kerning: true, ligatures: true, wholePixelAdvances: true)
    /// One glyph per character, no kerning, whole-pixel advances and origins: the placement
    /// the reference "feed" scene requires, so every renderer draws the same pixels.
    package static let plain = TextOptions(kerning: false, ligatures: false, wholePixelAdvances: true)
    /// Kerning and ligatures with fractional advances (origins still rounded per glyph).
    package static let fractional = TextOptions(kerning: true, ligatures: true, wholePixelAdvances: false)
}

/// One glyph out of the shaper, in logical order.
package struct ShapedGlyph: Hashable, Sendable {
    /// Glyph id in its face.
    package var glyph: UInt32
    /// Index of the face in `Font.faces`.
    package var face: UInt16
    /// Index of the first Unicode scalar of the glyph's cluster in the shaped text.
    package var cluster: Int32
    /// Horizontal advance in 1/64 px.
    package var advance: Int32
    /// Offset of the glyph from the pen position in 1/64 px (y up, as in FreeType).
    package var offsetX: Int32
    package var offsetY: Int32
}

/// Text that has been shaped: its scalars and glyphs. Widths are in pixels.
package struct ShapedText: Sendable {
    package let scalars: [Unicode.Scalar]
    package let glyphs: [ShapedGlyph]
    /// Sum of the advances, in pixels.
    package var width: Double { Double(glyphs.reduce(0) { $0 + Int($1.advance) }) / 64 }
}

/// How heavy text is drawn. Regular and bold come from the shipped faces (DejaVu Sans and
/// DejaVu Sans Bold); medium and semibold, and bold in a script whose face has no bold (the
/// Japanese one), widen the regular face's strokes as FreeType's synthetic bold does.
public enum FontWeight: Sendable {
    /// The body weight (400).
    case regular
    /// A little heavier (500).
    case medium
    /// Between medium and bold (600), for emphasis that is not a heading.
    case semibold
    /// Headings (700).
    case bold

    /// Every weight, lightest first.
    package static let all: [FontWeight] = [.regular, .medium, .semibold, .bold]
}

/// A weight and slant: what, besides the size, picks a font.
package struct FontStyle: Hashable, Sendable {
    package var weight: FontWeight
    package var italic: Bool
    package init(weight: FontWeight = .regular, italic: Bool = false) { self.weight = weight; self.italic = italic }
    package static let regular = FontStyle()
}

/// A fallback chain of faces at one pixel size: the first face that has a character draws
/// it. Metrics come from the first (primary) face.
package final class Font {
    /// The faces read so far, in chain order: the primary first, the others as text needs them.
    package private(set) var faces: [FontFace]
    /// The size in pixels (the UI layer multiplies points by the scale factor).
    package let pixelSize: Double
    package let options: TextOptions
    /// The size in 26.6 fixed point, as FreeType takes it.
    package let size26_6: Int
    /// Each face's glyph cache at this size, in `faces` order.
    package private(set) var glyphTables: [GlyphTable]
    /// 26.6 units each face's strokes are widened by (synthetic weight), in `faces` order: its
    /// glyphs' advances grow by as much, so emboldened letters keep their spacing.
    package private(set) var emboldening: [Int]
    /// The rest of the chain, read the first time a character needs a face beyond those read
    /// (the Japanese face is 4 MB and the colour emoji 11 MB that most screens never show): each
    /// gives its face and the fraction of the size its strokes are widened by, or nil when it
    /// cannot be read (said once by the library).
    package var deferredFaces: [() -> (face: FontFace, emboldening: Double)?] = []
    /// Pixels from the baseline up to the top of the line (positive).
    package let ascender: Double
    /// Pixels from the baseline down to the bottom of the line (positive).
    package let descender: Double
    /// Default distance between baselines, in pixels.
    package let lineHeight: Double

    /// Distance between baselines with `spacing` (a multiple of `lineHeight`; whole pixels when
    /// advances are whole): what a `TextLayout` uses, so a one-line label can be measured
    /// without laying it out.
    package func lineHeight(spacing: Double) -> Double {
        let h = lineHeight * (spacing.isFinite && spacing > 0 ? spacing : 1)
        return options.wholePixelAdvances ? h.rounded() : h
    }
    private var features: [hb_feature_t]
    /// Told of a letter no face in the chain has (it is drawn as the primary face's missing
    /// glyph, a box): the library reports each script once.
    package var onMissingCharacter: ((Unicode.Scalar) -> Void)?
    /// The shaped "…" used for truncation.
    package private(set) lazy var ellipsis: ShapedText = shape("\u{2026}")

    /// `emboldening` gives, per face, the fraction of the pixel size its strokes are widened by
    /// (missing entries: none).
    package init(faces: [FontFace], pixelSize: Double, options: TextOptions = .ui, emboldening: [Double] = []) throws(FontError) {
        guard let primary = faces.first else { throw .noFaces }
        guard pixelSize.isFinite, pixelSize >= 1, pixelSize <= 1024 else { throw .invalidSize(pixelSize) }
        self.faces = faces
        self.pixelSize = pixelSize
        self.options = options
        let size = Int((pixelSize * 64).rounded())
        self.size26_6 = size
        let strengths = faces.indices.map { i in i < emboldening.count ? Int((emboldening[i] * Double(size)).rounded()) : 0 }
        self.emboldening = strengths
        self.glyphTables = faces.indices.map { faces[$0].glyphTable(size26_6: size, embolden: strengths[$0]) }
        let m = primary.metrics(size26_6: size)
        if options.wholePixelAdvances {
            ascender = Double((m.ascender + 63) >> 6)
            descender = Double((-m.descender + 63) >> 6)
            lineHeight = Double((m.height + 32) >> 6)
        } else {
            ascender = Double(m.ascender) / 64
            descender = Double(-m.descender) / 64
            lineHeight = Double(m.height) / 64
        }
        var features: [hb_feature_t] = []
        var off: [String] = []
        if !options.kerning { off.append("-kern") }
        if !options.ligatures { off += ["-liga", "-clig"] }
        for name in off {
            var f = hb_feature_t()
            if hb_feature_from_string(name, -1, &f) != 0 { features.append(f) }
        }
        self.features = features
    }

    /// Which face draws `scalar`, given the face of the previous character. Marks and
    /// joiners stay with the previous character; spaces and punctuation stay in the current
    /// run when its face has them (so "日本 語" is one run); letters take the first face in
    /// the chain that has them; a character no face has takes the primary's missing glyph.
    package func faceIndex(for scalar: Unicode.Scalar, previous: Int?, next: Unicode.Scalar? = nil) -> Int {
        let v = scalar.value
        // Spaces and punctuation after an emoji go back to text: a colour face's space is wide.
        let previousText = previous.flatMap { faces[$0].colorStrike == nil ? $0 : nil }
        if v < 0x80 {  // ASCII without Unicode property lookups
            if v < 0x20 || v == 0x7F { return previous ?? 0 }
            let alphanumeric = (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
            if !alphanumeric, let previousText, faces[previousText].hasGlyph(for: scalar) { return previousText }
            if next == Self.emojiPresentation, let i = colorFace(for: scalar) { return i }  // a keycap: 1️⃣
            return firstFace(for: scalar, textOnly: true) ?? previous ?? 0
        }
        let props = scalar.properties
        switch props.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control:
            return previous ?? 0
        case .spaceSeparator, .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            if let previousText, faces[previousText].hasGlyph(for: scalar) { return previousText }
        default:
            if props.isVariationSelector { return previous ?? 0 }
        }
        // An emoji drawn as an emoji by default (☕), or asked to be (✈️ with U+FE0F), takes the
        // colour face first; one asked to be text (U+FE0E) does not.
        if next != Self.textPresentation, props.isEmojiPresentation || next == Self.emojiPresentation, let i = colorFace(for: scalar) {
            return i
        }
        if next == Self.textPresentation, let i = firstFace(for: scalar, textOnly: true) { return i }
        if let i = firstFace(for: scalar, textOnly: false) { return i }
        if !props.isWhitespace { onMissingCharacter?(scalar) }
        return previous ?? 0
    }

    /// Variation selectors 15 and 16: the character before is drawn as text, or as an emoji.
    static let textPresentation = Unicode.Scalar(0xFE0E)!, emojiPresentation = Unicode.Scalar(0xFE0F)!

    /// The first colour face that has `scalar`.
    private func colorFace(for scalar: Unicode.Scalar) -> Int? {
        if let i = faces.indices.first(where: { faces[$0].colorStrike != nil && faces[$0].hasGlyph(for: scalar) }) { return i }
        return readDeferredFaces() ? colorFace(for: scalar) : nil
    }

    /// Reads the rest of the chain (once); false when there was nothing left to read.
    private func readDeferredFaces() -> Bool {
        guard !deferredFaces.isEmpty else { return false }
        let loaders = deferredFaces
        deferredFaces = []
        for load in loaders {
            guard faces.count < Int(UInt16.max), let (face, widen) = load() else { continue }
            let strength = Int((widen * Double(size26_6)).rounded())
            faces.append(face)
            emboldening.append(strength)
            glyphTables.append(face.glyphTable(size26_6: size26_6, embolden: strength))
        }
        return true
    }

    /// The first face that has `scalar` (reading the rest of the chain when the faces read so
    /// far lack it), preferring text faces when `textOnly`.
    private func firstFace(for scalar: Unicode.Scalar, textOnly: Bool) -> Int? {
        if let i = faces.indices.first(where: { faces[$0].hasGlyph(for: scalar) && (!textOnly || faces[$0].colorStrike == nil) }) {
            return i
        }
        return readDeferredFaces() ? firstFace(for: scalar, textOnly: textOnly) : nil
    }

    /// Shapes a string (one line, no wrapping). See `shape(_:range:)`.
    package func shape(_ text: String) -> ShapedText {
        let scalars = Array(text.unicodeScalars)
        return ShapedText(scalars: scalars, glyphs: shape(scalars, range: 0..<scalars.count))
    }

    /// Shapes `scalars[range]` with HarfBuzz, split into runs by which face has each
    /// character (the rest of `scalars` is context for the shaper). Glyphs come back in
    /// logical order with clusters as indices into `scalars`. `rightToLeft` is the run's
    /// direction from its bidi level; nil lets HarfBuzz guess it from the script (left to
    /// right for Latin and Japanese). Placing glyphs in visual order is the layout's work.
    package func shape(_ scalars: [Unicode.Scalar], range: Range<Int>, rightToLeft: Bool? = nil) -> [ShapedGlyph] {
        guard !range.isEmpty else { return [] }
        var out: [ShapedGlyph] = []
        out.reserveCapacity(range.count)
        // The range and the context HarfBuzz reads around it (at most 5 characters each side):
        // a text of many short bidi runs is not copied whole for every run.
        let base = max(0, range.lowerBound - 8)
        let codepoints = scalars[base..<min(scalars.count, range.upperBound + 8)].map { $0.value }
        var runStart = range.lowerBound
        func next(_ i: Int) -> Unicode.Scalar? { i + 1 < scalars.count ? scalars[i + 1] : nil }
        var runFace = faceIndex(for: scalars[runStart], previous: nil, next: next(runStart))
        var i = runStart + 1
        while i <= range.upperBound {
            let face = i < range.upperBound ? faceIndex(for: scalars[i], previous: runFace, next: next(i)) : -1
            if face != runFace {
                shapeRun(codepoints, base, runStart..<i, face: runFace, rightToLeft: rightToLeft, into: &out)
                runStart = i
                runFace = face
            }
            i += 1
        }
        return out
    }

    /// Shapes `run` (scalar indices) of `codepoints`, which start at scalar `base`; clusters
    /// come back as indices into the whole text.
    private func shapeRun(
        _ codepoints: [UInt32], _ base: Int, _ run: Range<Int>, face index: Int, rightToLeft: Bool?,
        into out: inout [ShapedGlyph]
    ) {
        let face = faces[index]
        face.activate(size26_6: size26_6)
        let buffer = face.handle.shapingBuffer
        hb_buffer_clear_contents(buffer)
        codepoints.withUnsafeBufferPointer { cps in
            hb_buffer_add_codepoints(buffer, cps.baseAddress, Int32(cps.count), UInt32(run.lowerBound - base), Int32(run.count))
        }
        // A run's direction comes from its level (digits in Arabic text run left to right,
        // brackets in a right-to-left run are mirrored by HarfBuzz); the script is guessed.
        if let rightToLeft { hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR) }
        hb_buffer_guess_segment_properties(buffer)
        features.withUnsafeBufferPointer { f in
            hb_shape(face.hbFont, buffer, f.baseAddress, UInt32(f.count))
        }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return }
        let whole = options.wholePixelAdvances, widened = Int32(emboldening[index])
        let rtl = hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL
        // A colour emoji face is shaped at its strike's size and scaled like its pictures.
        let strikeScale = face.scale(at: size26_6)
        func scaled(_ v: Int32) -> Int32 { strikeScale == 1 ? v : Int32((Double(v) * strikeScale).rounded()) }
        for k in 0..<Int(count) {
            let j = rtl ? Int(count) - 1 - k : k
            let p = positions[j]
            var advance = p.x_advance == 0 ? 0 : scaled(p.x_advance) + widened, dx = scaled(p.x_offset), dy = scaled(p.y_offset)
            if whole {
                advance = ((advance + 32) >> 6) << 6
                dx = ((dx + 32) >> 6) << 6
                dy = ((dy + 32) >> 6) << 6
            }
            out.append(
                ShapedGlyph(
                    glyph: infos[j].codepoint, face: UInt16(index), cluster: Int32(Int(infos[j].cluster) + base),
                    advance: advance, offsetX: dx, offsetY: dy))
        }
    }

    /// Width of `text` on one line, in pixels.
    package func width(of text: String) -> Double { shape(text).width }
}
