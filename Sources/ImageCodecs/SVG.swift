import CRsvg
import Raster
import SharedLibraries
#if canImport(Glibc)
import Glibc
#endif

/// SVG pictures (a logo, a floor plan), rendered by librsvg at the size they are drawn at, so
/// they stay crisp at every scale and, up to `finestLevel`'s enlargement, every zoom.
///
/// What a hostile file can do is bounded: librsvg loads no other file or URL for a picture
/// given as bytes (no base file: `<image href="file:///...">` and external `<use>` are not
/// fetched), libxml2 refuses entity expansion past its own limits (billion laughs), what the
/// entities add is counted before parsing (`SVGEntities`), the filters' cost is estimated before
/// rendering (`SVGFilters`), and the rendered size is held to `DecodeLimits`, whatever the file's
/// width and height say.
package enum SVG {
    /// Its first bytes: an XML declaration, a comment or doctype, or the `svg` element, after
    /// optional whitespace and a byte-order mark; `<svg` must come within the first 4 KB.
    package static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else { return false }
        let head = bytes[start..<min(bytes.count, start + 4096)]
        let tag = Array("<svg".utf8)
        return head.indices.contains { i in head[i...].starts(with: tag) }
    }

    /// How far beyond its own size a picture is rendered for a zoom: 2 halvings the other way,
    /// four times its size. (Past that, the 4x rendering is enlarged.)
    package static let finestLevel = -2

    /// The picture at its own size (CSS pixels, 96 per inch).
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageCodecError) -> PixelBuffer {
        try decode(bytes, limits: limits) { _, _ in 0 }.pixels
    }

    /// The picture rendered at its own size halved as often as `halvings` asks, or enlarged
    /// when it asks for a negative count (down to `finestLevel`).
    package static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default, halvings: HalvingChoice)
        throws(ImageCodecError) -> ReducedPicture
    {
        guard let rsvg = Librsvg.shared else { throw .invalidSVG(message: Librsvg.missing) }
        let added = try SVGEntities(scanning: bytes).expandedBytes()
        guard added <= Double(limits.maxSVGEntityBytes) else {
            throw .svgTooCostly(
                reason: "its entities add \(Int(min(added, 1e15))) bytes to it, past the limit of \(limits.maxSVGEntityBytes)")
        }
        // Before librsvg parses: a kernel too large for it aborts the process as it is read.
        let filters = try SVGFilters(reading: bytes)
        var error: UnsafeMutablePointer<GlideGError>?
        guard let handle = bytes.withUnsafeBufferPointer({ rsvg.newFromData($0.baseAddress, $0.count, &error) }) else {
            throw .invalidSVG(message: rsvg.take(error) ?? "not an SVG document")
        }
        defer { rsvg.objectUnref(handle) }
        let (width, height, user) = try intrinsicSize(handle, rsvg, limits: limits)
        // Enlarged only as far as the limits allow (a floor plan zoomed in stays within them).
        var level = max(finestLevel, min(halvings(width, height), 30))
        while true {
            let scale = level >= 0 ? 1 / Double(1 << level) : Double(1 << (0 - level))
            let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
            let perUnit = max(Double(w) / user.width, Double(h) / user.height)
            if let violation = limits.violation(width: w, height: h)
                ?? filters.refusal(
                    width: w, height: h, scale: perUnit, userSize: max(user.width, user.height), limit: limits.maxSVGFilterWork)
            {
                guard level < 0 else { throw violation }
                level += 1
                continue
            }
            return ReducedPicture(
                pixels: try render(handle, rsvg, width: w, height: h), width: width, height: height, halvings: level,
                finest: finestLevel)
        }
    }

    /// The picture's own size in whole pixels: its width and height, else its viewBox's; and
    /// the size in user units its content is drawn in (the viewBox's, else the same).
    private static func intrinsicSize(_ handle: UnsafeMutableRawPointer, _ rsvg: Librsvg, limits: DecodeLimits)
        throws(ImageCodecError) -> (Int, Int, user: (width: Double, height: Double))
    {
        var w = 0.0, h = 0.0
        var hasViewBox: Int32 = 0
        var box = GlideRsvgRectangle()
        rsvg.intrinsicDimensions(handle, nil, nil, nil, nil, &hasViewBox, &box)
        if rsvg.intrinsicSizeInPixels(handle, &w, &h) == 0 {
            guard hasViewBox != 0 else {
                throw .invalidSVG(message: "it has no size: give the svg element a width and height or a viewBox")
            }
            (w, h) = (box.width, box.height)
        }
        guard w.isFinite, h.isFinite, w > 0, h > 0, w <= Double(1 << 20), h <= Double(1 << 20) else {
            throw .invalidSVG(message: "its size \(w) x \(h) is not a picture's")
        }
        let size = (max(1, Int(w.rounded())), max(1, Int(h.rounded())))
        if let violation = limits.violation(width: size.0, height: size.1) { throw violation }
        // A viewBox too small to measure scales its content without bound: its filters count as such.
        let user = hasViewBox != 0 ? (max(box.width, 1e-9), max(box.height, 1e-9)) : (w, h)
        return (size.0, size.1, user)
    }

    /// Renders the whole picture into `width` x `height` premultiplied pixels.
    private static func render(_ handle: UnsafeMutableRawPointer, _ rsvg: Librsvg, width: Int, height: Int)
        throws(ImageCodecError) -> PixelBuffer
    {
        let pixels = PixelBuffer(width: width, height: height)
        let span = pixels.span
        return try withExtendedLifetime(pixels) { () throws(ImageCodecError) -> PixelBuffer in
            guard
                let surface = rsvg.surfaceForData(
                    UnsafeMutableRawPointer(span.base).assumingMemoryBound(to: UInt8.self), 0, Int32(width), Int32(height),
                    Int32(span.stride * 4))
            else { throw .invalidSVG(message: "cairo could not make a surface") }
            defer { rsvg.surfaceDestroy(surface) }
            guard let cairo = rsvg.cairoCreate(surface) else { throw .invalidSVG(message: "cairo could not draw") }
            defer { rsvg.cairoDestroy(cairo) }
            var viewport = GlideRsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
            var error: UnsafeMutablePointer<GlideGError>?
            let drawn = rsvg.renderDocument(handle, cairo, &viewport, &error)
            rsvg.surfaceFlush(surface)
            guard drawn != 0 else { throw .invalidSVG(message: rsvg.take(error) ?? "librsvg could not render it") }
            return pixels
        }
    }
}

/// librsvg's functions, loaded once, on the first SVG (see `CRsvg`'s shim.h for why).
struct Librsvg: @unchecked Sendable {
    let newFromData: GlideRsvgNewFromData
    let intrinsicSizeInPixels: GlideRsvgIntrinsicSizeInPixels
    let intrinsicDimensions: GlideRsvgIntrinsicDimensions
    let renderDocument: GlideRsvgRenderDocument
    let objectUnref: GlideObjectUnref
    let errorFree: GlideErrorFree
    let surfaceForData: GlideCairoSurfaceForData
    let cairoCreate: GlideCairoCreate
    let cairoDestroy: GlideCairoRelease
    let surfaceDestroy: GlideCairoRelease
    let surfaceFlush: GlideCairoRelease

    /// nil where librsvg is not installed. (A global: the library is the process's, loaded once.)
    static let shared: Librsvg? = load()
    static let missing = "SVG pictures need librsvg, which this system lacks (Debian: apt-get install librsvg2-2)"

    private static func load() -> Librsvg? {
        // Its dependencies (cairo, GObject, GLib) come with it, and dlsym finds their symbols too.
        guard let library = try? SharedLibrary("librsvg-2.so.2", package: "librsvg2-2") else { return nil }
        return try? Librsvg(
            newFromData: library.function("rsvg_handle_new_from_data", GlideRsvgNewFromData.self),
            intrinsicSizeInPixels: library.function("rsvg_handle_get_intrinsic_size_in_pixels", GlideRsvgIntrinsicSizeInPixels.self),
            intrinsicDimensions: library.function("rsvg_handle_get_intrinsic_dimensions", GlideRsvgIntrinsicDimensions.self),
            renderDocument: library.function("rsvg_handle_render_document", GlideRsvgRenderDocument.self),
            objectUnref: library.function("g_object_unref", GlideObjectUnref.self),
            errorFree: library.function("g_error_free", GlideErrorFree.self),
            surfaceForData: library.function("cairo_image_surface_create_for_data", GlideCairoSurfaceForData.self),
            cairoCreate: library.function("cairo_create", GlideCairoCreate.self),
            cairoDestroy: library.function("cairo_destroy", GlideCairoRelease.self),
            surfaceDestroy: library.function("cairo_surface_destroy", GlideCairoRelease.self),
            surfaceFlush: library.function("cairo_surface_flush", GlideCairoRelease.self))
    }

    /// A GError's message, freed, cut to 300 characters: libxml2's parse errors quote the
    /// document's text (an attribute of 1,200 characters made a message of 1,288, found by the
    /// svg fuzz target), and a log line or a poster's place should say what is wrong in a few lines.
    func take(_ error: UnsafeMutablePointer<GlideGError>?) -> String? {
        guard let error else { return nil }
        defer { errorFree(error) }
        return error.pointee.message.map { message in
            let text = String(cString: message)
            return text.count <= 300 ? text : text.prefix(299) + "…"
        }
    }
}
