import Raster

// The one place where straight alpha (files) and premultiplied alpha (memory) meet.
// Pixels are 0xAARRGGBB in a UInt32, i.e. bytes B, G, R, A on little-endian machines, which
// is libpng's PNG_FORMAT_BGRA and TurboJPEG's TJPF_BGRA byte order.

#if _endian(big)
#error("ImageCodecs assumes a little-endian machine (0xAARRGGBB is stored as B, G, R, A)")
#endif

/// What the top byte of the pixels being encoded means.
package enum SourceAlpha: Sendable, Hashable {
    /// Premultiplied 0xAARRGGBB: colour channels are un-premultiplied before writing RGBA.
    case premultiplied
    /// XRGB8888 (a DRM frame): the top byte is ignored and the file is opaque RGB.
    case opaque
}

enum AlphaConversion {
    /// Straight 0xAARRGGBB (as decoded) → premultiplied, in place. Uses `div255`, the same
    /// rounding as `Color.premultiplied`, so a colour read from a PNG equals the one drawn.
    static func premultiplyInPlace(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        // Most pixels of most pictures are opaque: eight such at a time are passed over.
        var i = 0
        while i &+ 8 <= count {
            let p = pixels + i
            if p[0] & p[1] & p[2] & p[3] & p[4] & p[5] & p[6] & p[7] >= 0xFF00_0000 { i &+= 8; continue }
            premultiplyEach(p, count: 8)
            i &+= 8
        }
        premultiplyEach(pixels + i, count: count &- i)
    }

    private static func premultiplyEach(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let p = pixels[i]
            let a = p >> 24
            if a == 255 { continue }
            pixels[i] = a == 0 ? 0 : (scalePixel(p, by: a) & 0x00FF_FFFF) | (a << 24)
        }
    }

    /// Premultiplied rows → straight BGRA bytes (4 per pixel, tightly packed). Each channel
    /// becomes round(c * 255 / a), clamped, so decode(encode(p)) == p for every valid
    /// premultiplied pixel (c <= a): the error of the division is at most a/510 < 0.5.
    static func unpremultiply(_ span: PixelSpan, into out: UnsafeMutablePointer<UInt32>) {
        var o = 0
        for y in 0..<span.height {
            let row = span.row(y)
            for x in 0..<span.width {
                let p = row[x]
                let a = p >> 24
                if a == 255 {
                    out[o] = p
                } else if a == 0 {
                    out[o] = 0
                } else {
                    let half = a >> 1
                    let r = min(255, (((p >> 16) & 0xFF) * 255 + half) / a)
                    let g = min(255, (((p >> 8) & 0xFF) * 255 + half) / a)
                    let b = min(255, ((p & 0xFF) * 255 + half) / a)
                    out[o] = (a << 24) | (r << 16) | (g << 8) | b
                }
                o += 1
            }
        }
    }

    /// XRGB rows → B, G, R bytes (3 per pixel, tightly packed); the X byte is dropped.
    static func dropAlpha(_ span: PixelSpan, into out: UnsafeMutablePointer<UInt8>) {
        var o = 0
        for y in 0..<span.height {
            let row = span.row(y)
            for x in 0..<span.width {
                let p = row[x]
                out[o] = UInt8(truncatingIfNeeded: p)
                out[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                out[o + 2] = UInt8(truncatingIfNeeded: p >> 16)
                o += 3
            }
        }
    }
}
