/// The icon font (`MaterialIcons-Regular.ttf` in the fonts folder): an icon is a word the font's
/// ligatures turn into one glyph ("arrow_back"), shaped by HarfBuzz and rasterised by FreeType
/// at the size it is drawn, so it is as sharp as text at every scale.
package final class IconSet {
    /// The file in the fonts folder.
    package static let fileName = "MaterialIcons-Regular.ttf"
    private let library: FontLibrary
    private var face: FontFace?
    private var failed = false
    private var fonts: [Int: Font] = [:]
    private var glyphIDs: [String: UInt32?] = [:]

    package init(library: FontLibrary) { self.library = library }

    /// The font at `pixelSize` (quarter pixels), read the first time an icon is drawn; nil when
    /// the file cannot be read (said once in the log).
    private func font(pixelSize: Double) -> Font? {
        if face == nil, !failed {
            do { face = try library.loadFace(named: Self.fileName) } catch {
                failed = true
                library.report("the icon font cannot be read, icons are left out: \(error)")
            }
        }
        guard let face else { return nil }
        let quarters = Int((max(1, min(pixelSize.isFinite ? pixelSize : 24, 1000)) * 4).rounded())
        if let f = fonts[quarters] { return f }
        if fonts.count > 32 { fonts.removeAll() }
        let f = try? Font(faces: [face], pixelSize: Double(quarters) / 4)
        fonts[quarters] = f
        return f
    }

    /// The glyph of the icon `name` at `pixelSize` with its advance (the icon's square), or nil
    /// when the font has no icon by that name (its ligature leaves more than one glyph).
    package func glyph(named name: String, pixelSize: Double) -> (glyph: CachedGlyph, ascender: Double)? {
        guard let font = font(pixelSize: pixelSize) else { return nil }
        let id: UInt32?
        if let known = glyphIDs[name] {
            id = known
        } else {
            let shaped = font.shape(name)
            id = shaped.glyphs.count == 1 && shaped.glyphs[0].glyph != 0 && !name.isEmpty ? shaped.glyphs[0].glyph : nil
            if glyphIDs.count < 4096 { glyphIDs[name] = id }
        }
        guard let id else { return nil }
        return (font.glyphTables[0].glyph(id), font.ascender)
    }

    private var unknown: Set<String> = []

    /// True the first time `name` is found missing: a caller says so once.
    package func noteUnknown(_ name: String) -> Bool { unknown.count < 1000 && unknown.insert(name).inserted }

    /// Whether the font has an icon called `name` (false too when the font cannot be read).
    package func hasIcon(named name: String) -> Bool { glyph(named: name, pixelSize: 24) != nil }
}
