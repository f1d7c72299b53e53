#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import Raster
import Testing

// Golden-image comparison (tiny-skia / Slint style): exact by default, a diff image on failure,
// and an update mode that writes the new reference and still fails so that it cannot pass
// unnoticed.

/// The repository's `Tests` directory, found from this file's path.
public let testsDirectory: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)  // "TestSupport", "Golden.swift"
    return parts.joined(separator: "/")
}()

/// Path of the reference image `Tests/Golden/<suite>/<name>.png`.
public func goldenPath(suite: String, name: String) -> String {
    "\(testsDirectory)/Golden/\(suite)/\(name).png"
}

/// Whether `UPDATE_GOLDENS=1` is set.
public var isUpdatingGoldens: Bool {
    guard let value = getenv("UPDATE_GOLDENS") else { return false }
    return String(cString: value) == "1"
}

/// Compares `buffer` with `Tests/Golden/<suite>/<name>.png`. Both sides go through the same PNG
/// encoding (premultiplied → straight → premultiplied), so translucent pixels compare as the
/// file stores them; draw goldens over an opaque background to compare every bit.
/// A pixel matches when every channel differs by at most `maxChannelDelta`.
/// On mismatch writes `<name>.actual.png` and `<name>.diff.png` beside the reference and records
/// an issue. With `UPDATE_GOLDENS=1` it writes the reference and records an issue saying so.
public func assertGolden(
    _ buffer: PixelBuffer, suite: String, name: String, maxChannelDelta: Int = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let path = goldenPath(suite: suite, name: name)
    let base = String(path.dropLast(4))
    let actual: PixelBuffer
    do {
        actual = try PNG.decode(PNG.encode(buffer))
    } catch {
        Issue.record("golden \(suite)/\(name): cannot encode the rendered image: \(error)", sourceLocation: sourceLocation)
        return
    }
    if isUpdatingGoldens {
        makeDirectories(String(path[..<path.lastIndex(of: "/")!]))
        do {
            try PNG.write(buffer, to: path)
            Issue.record(
                "golden \(suite)/\(name): UPDATE_GOLDENS=1 wrote \(path); look at it, then rerun without UPDATE_GOLDENS",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("golden \(suite)/\(name): cannot write \(path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    let reference: PixelBuffer
    do {
        reference = try PNG.read(path: path)
    } catch {
        try? PNG.write(buffer, to: base + ".actual.png")
        Issue.record(
            "golden \(suite)/\(name): no readable reference at \(path) (\(error)); rendered image written to \(base).actual.png; run with UPDATE_GOLDENS=1 to create it",
            sourceLocation: sourceLocation)
        return
    }
    guard reference.width == actual.width, reference.height == actual.height else {
        try? PNG.write(buffer, to: base + ".actual.png")
        Issue.record(
            "golden \(suite)/\(name): size \(actual.width)x\(actual.height) differs from reference \(reference.width)x\(reference.height)",
            sourceLocation: sourceLocation)
        return
    }
    let comparison = compare(actual, reference, maxChannelDelta: maxChannelDelta)
    if comparison.mismatches == 0 {
        _ = unlink(base + ".actual.png")
        _ = unlink(base + ".diff.png")
        return
    }
    try? PNG.write(buffer, to: base + ".actual.png")
    try? PNG.write(comparison.diff, to: base + ".diff.png")
    Issue.record(
        """
        golden \(suite)/\(name): \(comparison.mismatches) pixel(s) differ (largest channel delta \(comparison.largestDelta), \
        first at \(comparison.first.x),\(comparison.first.y): actual 0x\(String(comparison.first.actual, radix: 16)), \
        reference 0x\(String(comparison.first.expected, radix: 16))); see \(base).actual.png and \(base).diff.png
        """, sourceLocation: sourceLocation)
}

/// Result of comparing two equally sized images.
public struct ImageComparison {
    public var mismatches: Int
    public var largestDelta: Int
    public var first: (x: Int, y: Int, actual: UInt32, expected: UInt32)
    /// Differing pixels in red (brighter = larger delta) over a faded copy of the reference.
    public var diff: PixelBuffer
}

/// Per-pixel comparison; a pixel differs when some channel differs by more than `maxChannelDelta`.
public func compare(_ actual: PixelBuffer, _ reference: PixelBuffer, maxChannelDelta: Int = 0) -> ImageComparison {
    precondition(actual.width == reference.width && actual.height == reference.height)
    let diff = PixelBuffer(width: actual.width, height: actual.height)
    var result = ImageComparison(mismatches: 0, largestDelta: 0, first: (0, 0, 0, 0), diff: diff)
    for y in 0..<actual.height {
        for x in 0..<actual.width {
            let a = actual[x, y], e = reference[x, y]
            var delta = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                delta = max(delta, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((e >> UInt32(shift)) & 0xFF)))
            }
            if delta > maxChannelDelta {
                if result.mismatches == 0 { result.first = (x, y, a, e) }
                result.mismatches += 1
                result.largestDelta = max(result.largestDelta, delta)
                let red = UInt32(min(255, 128 + delta * 2))
                diff[x, y] = 0xFF00_0000 | (red << 16)
            } else {
                // Faded grey of the reference's luminance, so the picture stays recognisable.
                let l = (((e >> 16) & 0xFF) + ((e >> 8) & 0xFF) + (e & 0xFF)) / 3
                let g = 192 + l / 4
                diff[x, y] = 0xFF00_0000 | (g << 16) | (g << 8) | g
            }
        }
    }
    return result
}

private func makeDirectories(_ path: String) {
    var current = ""
    for part in path.split(separator: "/") {
        current += "/" + part
        _ = mkdir(current, 0o755)
    }
}
