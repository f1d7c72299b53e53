// FreeType and HarfBuzz handles, font loading, and finding the shipped `Fonts/` folder among
// the paths a caller gives (the process's own places come from AppContract's FontSearchPlaces).
//
// Ownership: one `FT_Library` per `FontLibrary` (no globals), in a `FreeTypeHandle`. Each
// `FontFace` holds the handle strongly (the library caches faces, so a face holding the
// library would be a cycle), so the `FT_Library` outlives every `FT_Face` made from it; a
// face frees its `FT_Face` and `hb_font_t` in `deinit`. These objects are not thread-safe: use a
// library and the fonts made from it on one thread (the render thread).
import CFreeType
import Raster
import CHarfBuzz
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a font could not be loaded. Every bad font (missing, unreadable, truncated, not a
/// font at all) ends up here as a thrown value, never as a crash.
package enum FontError: Error, Equatable, CustomStringConvertible {
    /// `FT_Init_FreeType` failed (out of memory).
    case libraryInitFailed(freeTypeError: Int32)
    /// No file at the path.
    case fileNotFound(path: String)
    /// The path exists but cannot be read as a regular file (a directory, no permission).
    case unreadable(path: String, reason: String)
    /// FreeType could not open the file as a font, or the font is damaged (truncated
    /// tables, glyphs that fail to load). `freeTypeError` is FreeType's `FT_Error`.
    case invalidFont(path: String, freeTypeError: Int32, reason: String)
    /// The font is not scalable (a bitmap-only font) or has no glyphs.
    case unsupportedFont(path: String, reason: String)
    /// None of the searched places holds a `Fonts/` folder with the shipped fonts.
    case fontsDirectoryNotFound(searched: [String])
    /// A pixel size that is not finite or outside 1...1024.
    case invalidSize(Double)
    /// A `Font` needs at least one face.
    case noFaces

    package var description: String {
        switch self {
        case .libraryInitFailed(let e): return "FreeType could not be initialised (FT_Init_FreeType error \(e))"
        case .fileNotFound(let p): return "font file not found: \(p)"
        case .unreadable(let p, let r): return "font file cannot be read: \(p) (\(r))"
        case .invalidFont(let p, let e, let r): return "not a usable font: \(p) (\(r), FreeType error 0x\(String(e, radix: 16)))"
        case .unsupportedFont(let p, let r): return "unsupported font: \(p) (\(r))"
        case .fontsDirectoryNotFound(let s):
            return "no Fonts/ folder with \(FontLibrary.primaryFaceFile) found; searched: \(s.joined(separator: ", "))"
        case .invalidSize(let s): return "invalid font size \(s) px (must be finite, 1...1024)"
        case .noFaces: return "a font needs at least one face"
        }
    }
}

/// The `FT_Library` and the shared HarfBuzz buffer. Faces hold this (not the
/// `FontLibrary`, which caches faces: that would be a reference cycle), so the library is
/// freed after its last face. The corresponding C functions are `FT_Init_FreeType` and
/// `FT_Done_FreeType`.
final class FreeTypeHandle {
    let library: FT_Library
    /// One HarfBuzz buffer reused by every shaping call (no allocation per call once grown).
    let shapingBuffer: OpaquePointer

    init() throws(FontError) {
        var lib: FT_Library?
        let error = FT_Init_FreeType(&lib)
        guard error == 0, let lib else { throw .libraryInitFailed(freeTypeError: error) }
        guard let buffer = hb_buffer_create(), hb_buffer_allocation_successful(buffer) != 0 else {
            FT_Done_FreeType(lib)
            throw .libraryInitFailed(freeTypeError: 0x40)  // FT_Err_Out_Of_Memory
        }
        self.library = lib
        self.shapingBuffer = buffer
    }

    deinit {
        hb_buffer_destroy(shapingBuffer)
        FT_Done_FreeType(library)
    }
}

/// Owns one FreeType library instance and the faces loaded from one fonts directory.
///
/// ```swift
/// let fonts = try FontLibrary(directory: FontLibrary.locateFontsDirectory(near: #filePath))
/// let body = try fonts.standardFont(pixelSize: 16)   // DejaVu Sans, then VL PGothic
/// ```
package final class FontLibrary {
    /// The primary (Latin) face the app ships.
    package static let primaryFaceFile = "DejaVuSans.ttf"
    /// The Japanese fallback face the app ships.
    package static let japaneseFaceFile = "VL-PGothic-Regular.ttf"

    /// The primary face for a weight and slant: the shipped bold for bold, the oblique faces for
    /// italic (medium and semibold are the regular or oblique face, widened).
    static func primaryFaceFile(bold: Bool, italic: Bool) -> String {
        switch (bold, italic) {
        case (false, false): return primaryFaceFile
        case (true, false): return "DejaVuSans-Bold.ttf"
        case (false, true): return "DejaVuSans-Oblique.ttf"
        case (true, true): return "DejaVuSans-BoldOblique.ttf"
        }
    }

    /// Fractions of the pixel size a regular face's strokes are widened by for each weight: a
    /// third and two thirds of the way from DejaVu Sans to DejaVu Sans Bold (whose stems are
    /// about 0.057 em thicker), and the whole way for a face with no bold of its own.
    static func emboldening(_ weight: FontWeight) -> Double {
        switch weight {
        case .regular: return 0
        case .medium: return 0.019
        case .semibold: return 0.038
        case .bold: return 0.057
        }
    }

    /// Where Debian's `fonts-noto-color-emoji` puts its colour emoji: the default chain ends with
    /// it on a system that has it.
    package static let systemEmojiFont = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// The faces tried for each character by default: the shipped Latin, Arabic and Hebrew face,
    /// the shipped Japanese one, and the system's colour emoji where installed.
    package static var defaultChain: [String] {
        var isDirectory = false
        let emoji = pathExists(systemEmojiFont, isDirectory: &isDirectory) && !isDirectory
        return [primaryFaceFile, japaneseFaceFile] + (emoji ? [systemEmojiFont] : [])
    }

    /// The faces tried for each character, in order: file names in `directory` or absolute
    /// paths. The first that loads is the primary face, whose metrics set the lines; a colour
    /// emoji face never is. Fonts made afterwards follow it.
    package var chain = FontLibrary.defaultChain

    /// The directory that `loadFace(named:)` reads from.
    package let directory: String
    let handle: FreeTypeHandle
    var library: FT_Library { handle.library }
    private var facesByName: [String: FontFace] = [:]
    private var nextFaceID = 0
    /// The shipped faces found damaged, each reported once and not read again.
    private var damagedFaces: [String: FontError] = [:]
    /// Hears, once per file, that a shipped face is damaged and left out of the standard font.
    /// Text knows no log: the app sets this to its own (the default writes standard error).
    package var report: (String) -> Void = { message in
        let line = Array("warning: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Opens a FreeType library for fonts in `directory`. The directory must exist; faces
    /// are loaded on demand. The corresponding C function is `FT_Init_FreeType`.
    package init(directory: String) throws(FontError) {
        var isDirectory = false
        guard FontLibrary.pathExists(directory, isDirectory: &isDirectory) else { throw .fileNotFound(path: directory) }
        guard isDirectory else { throw .unreadable(path: directory, reason: "not a directory") }
        self.handle = try FreeTypeHandle()
        self.directory = directory
    }

    /// Bytes of the glyph caches of the faces loaded by name.
    package var glyphCacheBytes: Int { facesByName.values.reduce(0) { $0 + $1.glyphCacheBytes } }

    /// Loads (once) the face in `file`, a name relative to `directory` or an absolute path.
    package func loadFace(named file: String) throws(FontError) -> FontFace {
        if let face = facesByName[file] { return face }
        let face = try loadFace(path: file.hasPrefix("/") ? file : directory.hasSuffix("/") ? directory + file : directory + "/" + file)
        facesByName[file] = face
        return face
    }

    /// Loads a face from a file path (not cached: each call reads the file again). The file is
    /// read into memory whole and opened there: FreeType would map it, and a file truncated
    /// while mapped (as `cp` over it does) kills the process with SIGBUS at the next glyph.
    /// The corresponding C function is `FT_New_Memory_Face`.
    package func loadFace(path: String) throws(FontError) -> FontFace {
        let data = try FontLibrary.readFontFile(path)
        do {
            try FontLibrary.checkTableDirectory(UnsafeRawBufferPointer(data), fileSize: data.count, name: path)
        } catch {
            data.deallocate()
            throw error
        }
        return try openFace(data, name: path)
    }

    /// Loads a face from bytes in memory (kept alive by the face).
    /// The corresponding C function is `FT_New_Memory_Face`.
    package func loadFace(bytes: [UInt8], name: String) throws(FontError) -> FontFace {
        guard !bytes.isEmpty else {
            throw .invalidFont(path: name, freeTypeError: 0x02, reason: "empty data")
        }
        try bytes.withUnsafeBufferPointer { (b) throws(FontError) in
            try FontLibrary.checkTableDirectory(UnsafeRawBufferPointer(b), fileSize: b.count, name: name)
        }
        let data = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = data.initialize(from: bytes)
        return try openFace(data, name: name)
    }

    /// Opens `data` (which the face then owns, or which is freed on failure) as a face.
    private func openFace(_ data: UnsafeMutableBufferPointer<UInt8>, name: String) throws(FontError) -> FontFace {
        var face: FT_Face?
        let error = FT_New_Memory_Face(library, data.baseAddress, FT_Long(data.count), 0, &face)
        guard error == 0, let face else {
            data.deallocate()
            throw .invalidFont(path: name, freeTypeError: error, reason: FontLibrary.message(forFreeTypeError: error))
        }
        return try makeFace(face, name: name, data: data)
    }

    /// Font files larger than this are refused: the shipped Japanese face is 4 MB, and a face
    /// is held in memory whole.
    package static let maximumFontFileBytes = 64 << 20

    /// The whole of a regular file, read with POSIX calls into memory the caller frees. A file
    /// that shrinks while read gives what was there; one that grows is cut at its size at open.
    private static func readFontFile(_ path: String) throws(FontError) -> UnsafeMutableBufferPointer<UInt8> {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .fileNotFound(path: path) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .unreadable(path: path, reason: "is a directory")
        // Opening a FIFO blocks until a writer comes, a device may never end: neither is a font.
        default: throw .unreadable(path: path, reason: "not a regular file (a FIFO, device or socket)")
        }
        guard access(path, R_OK) == 0 else { throw .unreadable(path: path, reason: "no read permission") }
        // O_NONBLOCK: a file swapped for a FIFO since the stat above must not block the open.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadable(path: path, reason: "cannot open") }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file (a FIFO, device or socket)")
        }
        let size = Int(info.st_size)
        guard size <= maximumFontFileBytes else {
            throw .unsupportedFont(path: path, reason: "\(size) bytes, more than a font may have (\(maximumFontFileBytes))")
        }
        let data = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, size))
        var filled = 0
        while filled < size {
            let n = read(fd, data.baseAddress! + filled, size - filled)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        guard filled > 0 else {
            data.deallocate()
            throw .invalidFont(path: path, freeTypeError: 0x02, reason: "file too short to be a font (0 bytes)")
        }
        return UnsafeMutableBufferPointer(rebasing: data[0..<filled])
    }

    /// The app's standard font at `pixelSize`: the faces of `chain` in turn, by default DejaVu
    /// Sans, falling back to VL PGothic for characters DejaVu Sans lacks (kana, kanji, full-width
    /// punctuation) and to colour emoji. Only the primary face is read now; the rest when a
    /// character first needs them. A face that is missing or damaged (truncated, no glyphs,
    /// refused by FreeType) is reported once through `report` and left out: the others draw
    /// everything they have. Throws only when no outline face loads.
    package func standardFont(pixelSize: Double, options: TextOptions = .ui, style: FontStyle = .regular) throws(FontError) -> Font {
        var firstError: FontError?
        var rest = chain[...]
        var primary: (face: FontFace, emboldening: Double)?
        while primary == nil, let file = rest.popFirst() {
            // A colour emoji face is a picture: never the primary face.
            if let styled = styledFace(file, style, firstError: &firstError), styled.face.colorStrike == nil { primary = styled }
        }
        guard let primary else { throw firstError ?? .noFaces }
        let font = try Font(faces: [primary.face], pixelSize: pixelSize, options: options, emboldening: [primary.emboldening])
        // Held strongly: a font outlives the library value it was made from (the library
        // holds no fonts, so there is no cycle).
        font.deferredFaces = rest.map { file in
            {
                var error: FontError?
                return self.styledFace(file, style, firstError: &error)
            }
        }
        // By the time a letter is missing the whole chain has been read: its faces are the chain.
        font.onMissingCharacter = { [weak self, weak font] scalar in
            self?.reportMissing(scalar, chain: font?.faces.map(\.familyName).joined(separator: ", ") ?? "")
        }
        return font
    }

    /// The face of chain entry `file` for `style`, with the fraction of the size its strokes are
    /// widened by: DejaVu Sans's own bold and oblique faces (should one be missing or damaged,
    /// the regular one widened); any other face widened for weights above regular, a colour face
    /// never.
    private func styledFace(_ file: String, _ style: FontStyle, firstError: inout FontError?) -> (face: FontFace, emboldening: Double)? {
        let bold = style.weight == .bold, shipped = file == FontLibrary.primaryFaceFile
        let styled = shipped ? FontLibrary.primaryFaceFile(bold: bold, italic: style.italic) : file
        var candidates = [(styled, shipped && bold ? 0 : FontLibrary.emboldening(style.weight))]
        if styled != file { candidates.append((file, FontLibrary.emboldening(style.weight))) }
        for (name, widen) in candidates {
            guard let face = loadShippedFace(name, firstError: &firstError) else { continue }
            return (face, face.colorStrike == nil ? widen : 0)
        }
        return nil
    }

    /// Scripts a missing character was reported for: each is said once.
    private var scriptsReportedMissing: Set<UInt32> = []

    /// Says, once per script, that no shipped font has `scalar`, which is drawn as a box.
    private func reportMissing(_ scalar: Unicode.Scalar, chain: String) {
        let script = hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value)
        guard scriptsReportedMissing.insert(script.rawValue).inserted else { return }
        let tag = script.rawValue
        let name = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
        let code = String(scalar.value, radix: 16, uppercase: true)
        report(
            "no font in the chain \(chain) has U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) (script \(name)); its letters are drawn as boxes"
        )
    }

    /// A shipped face, or nil when it cannot be read (said once; not read again for each new
    /// size: it was damaged when read).
    private func loadShippedFace(_ file: String, firstError: inout FontError?) -> FontFace? {
        if let error = damagedFaces[file] { firstError = firstError ?? error; return nil }
        do { return try loadFace(named: file) } catch {
            firstError = firstError ?? error
            damagedFaces[file] = error
            report("\(error); left out: the other faces of the font chain draw in its place")
            return nil
        }
    }

    private func makeFace(_ face: FT_Face, name: String, data: UnsafeMutableBufferPointer<UInt8>?) throws(FontError) -> FontFace {
        do {
            try FontLibrary.validate(face, name: name)
        } catch {
            FT_Done_Face(face)
            data?.deallocate()
            throw error
        }
        guard let hbFont = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            data?.deallocate()
            throw .invalidFont(path: name, freeTypeError: 0x40, reason: "HarfBuzz could not create a font")
        }
        nextFaceID += 1
        return FontFace(handle: handle, face: face, hbFont: hbFont, name: name, id: nextFaceID, data: data)
    }

    /// Rejects faces that FreeType opened but that cannot render: bitmap-only fonts, empty
    /// fonts, and damaged files whose glyphs fail to load (a truncated file usually opens,
    /// since the table directory is at the start, and then fails here).
    private static func validate(_ face: FT_Face, name: String) throws(FontError) {
        let flags = face.pointee.face_flags
        let color = FontFace.colorStrike(of: face)
        guard flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 || color != nil else {
            throw .unsupportedFont(path: name, reason: "not a scalable (outline) font, nor colour bitmaps")
        }
        let glyphCount = Int(face.pointee.num_glyphs)
        guard glyphCount > 1 else { throw .unsupportedFont(path: name, reason: "font has no glyphs") }
        var error = color.map { FT_Select_Size(face, $0.index) } ?? FT_Set_Char_Size(face, 0, 16 * 64, 72, 72)
        guard error == 0 else {
            throw .invalidFont(path: name, freeTypeError: error, reason: "cannot set a size: " + message(forFreeTypeError: error))
        }
        // Probe the first, a middle and the last glyph, plus the glyph for "A" if mapped:
        // their outlines sit at the start, middle and end of the glyph data.
        var probes: [UInt32] = [0, UInt32(glyphCount / 2), UInt32(glyphCount - 1)]
        let a = FT_Get_Char_Index(face, 0x41)
        if a != 0 { probes.append(a) }
        for glyph in probes {
            error = FT_Load_Glyph(face, glyph, color == nil ? FontFace.loadFlags : FontFace.colorLoadFlags)
            if error == 0 { error = FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) }
            guard error == 0 else {
                throw .invalidFont(
                    path: name, freeTypeError: error,
                    reason: "glyph \(glyph) of \(glyphCount) fails to load (damaged or truncated file): " + message(forFreeTypeError: error)
                )
            }
        }
    }

    /// FreeType silently drops sfnt tables that extend past the end of the file, so a
    /// truncated font can open and then draw wrongly. Reject it here: every table in the
    /// directory must end inside the file. `start` holds at least the file's first bytes.
    /// Collections (`ttcf`) and unknown signatures are left to FreeType.
    static func checkTableDirectory(_ start: UnsafeRawBufferPointer, fileSize: Int, name: String) throws(FontError) {
        func be32(_ at: Int) -> Int {
            Int(start[at]) << 24 | Int(start[at + 1]) << 16 | Int(start[at + 2]) << 8 | Int(start[at + 3])
        }
        guard start.count >= 12 else {
            throw .invalidFont(path: name, freeTypeError: 0x02, reason: "file too short to be a font (\(fileSize) bytes)")
        }
        let signature = be32(0)
        // 0x00010000 TrueType, 'OTTO' CFF, 'true' Apple TrueType.
        guard signature == 0x0001_0000 || signature == 0x4F54_544F || signature == 0x7472_7565 else { return }
        let tableCount = Int(start[4]) << 8 | Int(start[5])
        for i in 0..<tableCount {
            let record = 12 + 16 * i
            guard record + 16 <= start.count else {
                if record + 16 > fileSize {
                    throw .invalidFont(path: name, freeTypeError: 0x55, reason: "truncated: table directory ends past the end of the file")
                }
                return  // a directory longer than the part read: FreeType checks the rest
            }
            let offset = be32(record + 8), length = be32(record + 12)
            if offset + length > fileSize {
                let tag = String(decoding: (0..<4).map { start[record + $0] }, as: UTF8.self)
                throw .invalidFont(
                    path: name, freeTypeError: 0x55,
                    reason: "truncated: table '\(tag)' ends at byte \(offset + length), the file has \(fileSize)")
            }
        }
    }

    static func message(forFreeTypeError error: FT_Error) -> String {
        if let s = FT_Error_String(error) { return String(cString: s) }
        switch error {
        case 0x01: return "cannot open resource"
        case 0x02: return "unknown file format"
        case 0x03: return "broken file"
        case 0x08: return "invalid table"
        case 0x10...0x1F: return "invalid glyph or outline"
        case 0x40: return "out of memory"
        case 0x51...0x57: return "stream error (file truncated?)"
        case 0x8E, 0x8F: return "missing table"
        case 0x90...0x93: return "table missing or damaged"
        default: return "FreeType error"
        }
    }

    // MARK: Finding Fonts/

    /// Walks up from `path` (a file or directory) and returns the first `<ancestor>/Fonts`
    /// folder that holds the shipped primary face. Tests pass `#filePath`, so they load the
    /// repository's fonts wherever the checkout is.
    ///
    /// - Parameter path: The file or folder to walk up from.
    /// - Returns: The `Fonts/` folder's path.
    /// - Throws: `FontError.fontsDirectoryNotFound` with every folder tried.
    package static func locateFontsDirectory(near path: String) throws(FontError) -> String {
        var searched: [String] = []
        if let found = search(upFrom: path, searched: &searched) { return found }
        throw .fontsDirectoryNotFound(searched: searched)
    }

    /// The fonts folder among the places a process gives (the process knows its environment
    /// and executable; this only looks at the paths): `glideFonts` if it holds the shipped
    /// primary face, else the first `Fonts/` found walking up from each of `startingPoints` in
    /// turn (the executable, then the Glide checkout, for a running app).
    ///
    /// - Parameters:
    ///   - glideFonts: The folder `$GLIDE_FONTS` names, or nil. One that does not hold the fonts
    ///     is not used; `warn` hears why.
    ///   - startingPoints: Files or folders to walk up from, in the order they are tried.
    ///   - warn: Hears why `glideFonts` was passed over.
    /// - Returns: The fonts folder's path.
    /// - Throws: `FontError.fontsDirectoryNotFound` with every folder tried.
    package static func locateFontsDirectory(
        glideFonts: String?, searchingUpFrom startingPoints: [String],
        warn: (String) -> Void = { _ in }
    ) throws(FontError) -> String {
        var searched: [String] = []
        if let dir = glideFonts {
            searched.append(dir + " ($GLIDE_FONTS)")
            var isDirectory = false
            if pathExists(dir + "/" + primaryFaceFile, isDirectory: &isDirectory), !isDirectory { return dir }
            let why = pathExists(dir, isDirectory: &isDirectory) ? "has no \(primaryFaceFile)" : "does not exist"
            warn("$GLIDE_FONTS=\(dir) \(why); looking for Glide's Fonts/ next to the executable instead")
        }
        for start in startingPoints {
            if let found = search(upFrom: start, searched: &searched) { return found }
        }
        throw .fontsDirectoryNotFound(searched: searched)
    }

    private static func search(upFrom path: String, searched: inout [String]) -> String? {
        var dir = path
        while true {
            var isDirectory = false
            let candidate = (dir.isEmpty ? "" : dir) + "/Fonts"
            searched.append(candidate)
            if pathExists(candidate + "/" + primaryFaceFile, isDirectory: &isDirectory), !isDirectory {
                return candidate
            }
            guard let slash = dir.lastIndex(of: "/") else { return nil }
            if slash == dir.startIndex { if dir == "/" || dir.isEmpty { return nil }; dir = ""; continue }
            dir = String(dir[..<slash])
        }
    }

    static func pathExists(_ path: String, isDirectory: inout Bool) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
        return true
    }
}

/// One loaded font file (an `FT_Face` plus its HarfBuzz font), with the glyph cache for
/// every pixel size it has been used at.
package final class FontFace {
    /// FreeType's default hinting, grey-scale; outlines only (embedded bitmap strikes,
    /// which Japanese fonts carry for small sizes, would be black-and-white).
    static let loadFlags = Int32(FT_LOAD_DEFAULT) | Int32(FT_LOAD_NO_BITMAP)
    /// A colour emoji face's glyphs are its BGRA bitmaps (CBDT).
    static let colorLoadFlags = Int32(FT_LOAD_COLOR)

    /// The strike a face of colour bitmaps draws from (the largest: it is scaled down to the
    /// size asked for, as a picture is), nil for an outline face.
    static func colorStrike(of face: FT_Face) -> (index: Int32, pixels: Int)? {
        let flags = face.pointee.face_flags
        guard flags & FT_Long(FT_FACE_FLAG_COLOR) != 0, flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0,
            face.pointee.num_fixed_sizes > 0, let sizes = face.pointee.available_sizes
        else { return nil }
        var best: (index: Int32, pixels: Int)?
        for i in 0..<Int(face.pointee.num_fixed_sizes) {
            let pixels = Int((sizes[i].y_ppem + 32) >> 6)
            if pixels > 0, pixels > best?.pixels ?? 0 { best = (Int32(i), pixels) }
        }
        return best
    }

    /// The strike this face draws from when it is a face of colour bitmaps (an emoji font).
    package let colorStrike: (index: Int32, pixels: Int)?

    /// Keeps the `FT_Library` alive as long as this face.
    let handle: FreeTypeHandle
    @usableFromInline let face: FT_Face
    let hbFont: OpaquePointer
    /// The file path (or the name given for in-memory data).
    package let name: String
    /// Unique within its library; part of the glyph cache key.
    package let id: Int
    /// Family and style as the font names them, e.g. "DejaVu Sans Book".
    package let familyName: String
    /// Number of glyphs in the font.
    package let glyphCount: Int
    private let data: UnsafeMutableBufferPointer<UInt8>?
    /// The 26.6 size the `FT_Face` (and the HarfBuzz font) is currently set to.
    private var activeSize: Int = 16 * 64
    /// Glyph tables per 26.6 pixel size and emboldening.
    private var tables: [GlyphTable.Key: GlyphTable] = [:]

    init(handle: FreeTypeHandle, face: FT_Face, hbFont: OpaquePointer, name: String, id: Int, data: UnsafeMutableBufferPointer<UInt8>?) {
        self.handle = handle
        self.face = face
        self.hbFont = hbFont
        self.name = name
        self.id = id
        self.data = data
        self.glyphCount = Int(face.pointee.num_glyphs)
        let family = face.pointee.family_name.map { String(cString: $0) } ?? "?"
        let style = face.pointee.style_name.map { String(cString: $0) } ?? ""
        self.familyName = style.isEmpty ? family : family + " " + style
        colorStrike = FontFace.colorStrike(of: face)
        if let strike = colorStrike { _ = FT_Select_Size(face, strike.index) }
        hb_ft_font_set_load_flags(hbFont, colorStrike == nil ? FontFace.loadFlags : FontFace.colorLoadFlags)
        hb_ft_font_changed(hbFont)
    }

    deinit {
        hb_font_destroy(hbFont)  // drops HarfBuzz's reference to the FT_Face
        FT_Done_Face(face)
        data?.deallocate()
    }

    /// The glyph index for a character, 0 when the font lacks it.
    /// The corresponding C function is `FT_Get_Char_Index`.
    package func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// Whether the font has a glyph for `scalar`.
    package func hasGlyph(for scalar: Unicode.Scalar) -> Bool { glyphIndex(for: scalar) != 0 }

    /// Sets the `FT_Face` and the HarfBuzz font to a 26.6 pixel size, if not already there.
    func activate(size26_6: Int) {
        // A colour face stays at its strike: HarfBuzz's positions are scaled (`scale(at:)`).
        guard size26_6 != activeSize, colorStrike == nil else { return }
        if FT_Set_Char_Size(face, 0, FT_F26Dot6(size26_6), 72, 72) == 0 {
            activeSize = size26_6
        }
        hb_ft_font_changed(hbFont)
    }

    /// Vertical metrics at a 26.6 size, in 26.6 units (as FreeType's size metrics give them).
    func metrics(size26_6: Int) -> (ascender: Int, descender: Int, height: Int) {
        activate(size26_6: size26_6)
        let m = face.pointee.size.pointee.metrics, k = scale(at: size26_6)
        return (Int(Double(m.ascender) * k), Int(Double(m.descender) * k), Int(Double(m.height) * k))
    }

    /// What the face's own units are multiplied by at a 26.6 size: 1 for an outline face, the
    /// size over the strike's for colour bitmaps.
    package func scale(at size26_6: Int) -> Double {
        colorStrike.map { Double(size26_6) / 64 / Double($0.pixels) } ?? 1
    }

    /// Bytes of every glyph cache of this face.
    package var glyphCacheBytes: Int { tables.values.reduce(0) { $0 + $1.bytes } }

    /// The glyph cache of this face at a 26.6 pixel size, its outlines emboldened by
    /// `embolden` 26.6 units (created on first use).
    package func glyphTable(size26_6: Int, embolden: Int = 0) -> GlyphTable {
        let key = GlyphTable.Key(size26_6: size26_6, embolden: embolden)
        if let table = tables[key] { return table }
        let table = GlyphTable(face: self, size26_6: size26_6, embolden: embolden)
        tables[key] = table
        return table
    }

    /// Renders one glyph with FreeType (default hinting, grey-scale anti-aliasing). A glyph
    /// that fails to load or render gives an empty mask, never a crash.
    /// The corresponding C functions are `FT_Load_Glyph` and `FT_Render_Glyph`.
    /// `embolden` (26.6 units, 0: none) widens the outline's strokes by that much, as FreeType's
    /// synthetic bold does (`FT_Outline_EmboldenXY`): the weights a face does not ship.
    func rasterize(glyph: UInt32, size26_6: Int, embolden: Int = 0) -> CachedGlyph {
        if colorStrike != nil { return rasterizeColor(glyph: glyph, scale: scale(at: size26_6)) }
        activate(size26_6: size26_6)
        guard FT_Load_Glyph(face, glyph, FontFace.loadFlags) == 0, let slot = face.pointee.glyph else { return .empty }
        if embolden > 0, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            FT_Outline_EmboldenXY(&slot.pointee.outline, FT_Pos(embolden), FT_Pos(embolden))
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return .empty }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard width > 0, height > 0, width <= 4096, height <= 4096, let buffer = bitmap.buffer else {
            return CachedGlyph(mask: AlphaMask(width: 0, height: 0), left: 0, top: 0)
        }
        let pitch = Int(bitmap.pitch)
        // Rows padded with zero coverage to whole groups of four: the blend loop then takes a
        // glyph row in groups alone, without a tail (coverage 0 leaves a pixel as it is).
        let stride = (width + 3) & ~3
        var coverage = [UInt8](repeating: 0, count: stride * height)
        let mode = Int32(bitmap.pixel_mode)
        coverage.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                // A negative pitch means rows go upwards in memory; FreeType's buffer then
                // points at the last row's start.
                let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * (-pitch)
                if mode == Int32(FT_PIXEL_MODE_GRAY.rawValue) {
                    for x in 0..<width { out[y * stride + x] = row[x] }
                } else if mode == Int32(FT_PIXEL_MODE_MONO.rawValue) {
                    for x in 0..<width { out[y * stride + x] = (row[x >> 3] & (0x80 >> UInt8(x & 7))) != 0 ? 255 : 0 }
                }
            }
        }
        return CachedGlyph(
            mask: AlphaMask(width: stride, height: height, coverage: coverage),
            left: Int32(slot.pointee.bitmap_left), top: Int32(slot.pointee.bitmap_top))
    }
}

extension FontFace {
    /// A colour glyph (an emoji): its BGRA bitmap at the strike, averaged down by `scale` into
    /// premultiplied pixels.
    func rasterizeColor(glyph: UInt32, scale: Double) -> CachedGlyph {
        guard FT_Load_Glyph(face, glyph, FontFace.colorLoadFlags) == 0, let slot = face.pointee.glyph,
            slot.pointee.format == FT_GLYPH_FORMAT_BITMAP, let buffer = slot.pointee.bitmap.buffer,
            Int32(slot.pointee.bitmap.pixel_mode) == Int32(FT_PIXEL_MODE_BGRA.rawValue)
        else { return .empty }
        let bitmap = slot.pointee.bitmap
        let sw = Int(bitmap.width), sh = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard sw > 0, sh > 0, sw <= 4096, sh <= 4096, scale > 0, scale.isFinite else { return .empty }
        let w = max(1, Int((Double(sw) * scale).rounded(.up))), h = max(1, Int((Double(sh) * scale).rounded(.up)))
        let image = PixelBuffer(width: w, height: h)
        // Each target pixel averages the source pixels its square covers (premultiplied, so the
        // edges keep their colour).
        for y in 0..<h {
            let y0 = Int(Double(y) / scale), y1 = max(y0 + 1, min(sh, Int(Double(y + 1) / scale)))
            for x in 0..<w {
                let x0 = Int(Double(x) / scale), x1 = max(x0 + 1, min(sw, Int(Double(x + 1) / scale)))
                var sum = (0, 0, 0, 0), n = 0
                for sy in y0..<min(y1, sh) {
                    let row = pitch >= 0 ? buffer + sy * pitch : buffer + (sh - 1 - sy) * (-pitch)
                    for sx in x0..<min(x1, sw) {
                        let p = row + sx * 4  // B, G, R, A, premultiplied
                        sum.0 += Int(p[0]); sum.1 += Int(p[1]); sum.2 += Int(p[2]); sum.3 += Int(p[3])
                        n += 1
                    }
                }
                guard n > 0 else { continue }
                let a = UInt32((sum.3 + n / 2) / n), r = UInt32((sum.2 + n / 2) / n)
                let g = UInt32((sum.1 + n / 2) / n), b = UInt32((sum.0 + n / 2) / n)
                image[x, y] = a << 24 | min(r, a) << 16 | min(g, a) << 8 | min(b, a)
            }
        }
        return CachedGlyph(
            mask: AlphaMask(width: 0, height: 0), left: Int32((Double(slot.pointee.bitmap_left) * scale).rounded()),
            top: Int32((Double(slot.pointee.bitmap_top) * scale).rounded()), color: image)
    }
}
