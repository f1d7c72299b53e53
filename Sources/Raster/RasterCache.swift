import Geometry

/// What repeats from frame to frame, kept by the canvas's user (no globals): coverage masks of
/// rounded-rectangle corners per (radius, sub-pixel phase, corner) and of circles per (radius,
/// phase), plus the scratch rows and accumulation buffer the canvas works in, so that drawing
/// allocates nothing in steady state. Phases and radii are quantised to 1/64 pixel.
///
/// Not thread-safe: use one cache per drawing thread.
@usableFromInline package final class RasterCache {
    /// A mask's radius (1/64 px), sub-pixel phases and corner (0 for circles) packed into one
    /// word, which hashes in one combine: a frame looks masks up dozens of times, and four
    /// combines per key showed in its profile.
    struct MaskKey: Hashable {
        let packed: UInt64
        init(radius: Int, phaseX: Int, phaseY: Int, corner: Int = 0) {
            packed =
                UInt64(UInt32(truncatingIfNeeded: radius)) << 32 | UInt64(phaseX & 63) << 16 | UInt64(phaseY & 63) << 8
                | UInt64(corner & 3)
        }
    }

    /// Entries per kind kept before the cache is emptied (bounds memory under odd inputs).
    package let maximumEntries: Int
    var corners: [MaskKey: CoverageMask] = [:]
    var circles: [MaskKey: CoverageMask] = [:]
    /// Flattening tolerance (pixels) for cached and fallback curves: chords lie inside the arc,
    /// so this bounds the coverage lost on an edge pixel to about 0.005 · 255 ≈ 1 level.
    static let curveTolerance = 0.005
    /// Circles with a larger radius are rasterised on every draw instead of cached.
    static let maximumCachedRadius = 256.0

    /// Halved copies of images drawn reduced, per image, shared by every view that draws it,
    /// within `maximumHalvingBytes` (least recently drawn images dropped first).
    /// `image` is kept so that its identifier is not reused by another picture while the
    /// entry lives (its pixels are not counted in `bytes`: an owner that lets it go calls
    /// `forgetHalvings(of:)`).
    struct Halvings { var image: PixelBuffer; var levels: [PixelBuffer]; var bytes: Int; var lastUse: Int }
    var halvings: [ObjectIdentifier: Halvings] = [:]
    package var maximumHalvingBytes = 32 << 20
    package private(set) var halvingBytes = 0
    private var uses = 0

    /// Blurred shadow masks per size, corner and blur (device pixels): every card of a list
    /// of equal cards shares one, blurred once. Emptied past `maximumShadowBytes`.
    package struct ShadowKey: Hashable, Sendable {
        package var width: Int, height: Int, cornerQuarters: Int, blur: Int
        package init(width: Int, height: Int, cornerQuarters: Int, blur: Int) {
            self.width = width; self.height = height; self.cornerQuarters = cornerQuarters; self.blur = blur
        }
    }
    private var shadows: [ShadowKey: (mask: AlphaMask, margin: Int)] = [:]
    private var shadowBytes = 0
    package var maximumShadowBytes = 8 << 20
    /// Masks blurred so far (a test counts them).
    package private(set) var shadowsMade = 0

    /// The shadow mask for `key`, blurred now unless kept.
    package func shadow(_ key: ShadowKey) -> (mask: AlphaMask, margin: Int) {
        if let kept = shadows[key] { return kept }
        let made = AlphaMask.shadow(
            width: key.width, height: key.height, cornerRadius: Double(key.cornerQuarters) / 4, blur: Double(key.blur))
        shadowsMade += 1
        if shadowBytes + made.mask.coverage.count > maximumShadowBytes {
            shadows.removeAll()
            shadowBytes = 0
        }
        shadows[key] = made
        shadowBytes += made.mask.coverage.count
        return made
    }

    private var rowStorage: UnsafeMutablePointer<UInt8>
    private var rowCapacity = 0
    private var accumulatorStorage: UnsafeMutablePointer<Float>
    private var accumulatorCapacity = 0
    private var maskRowStorage: UnsafeMutablePointer<UInt8>
    private var maskRowCapacity = 0
    static let scratchRowCount = 6

    package init(maximumEntries: Int = 512) {
        self.maximumEntries = max(1, maximumEntries)
        rowStorage = .allocate(capacity: 1)
        accumulatorStorage = .allocate(capacity: 1)
        maskRowStorage = .allocate(capacity: 1)
    }
    deinit {
        rowStorage.deallocate()
        accumulatorStorage.deallocate()
        maskRowStorage.deallocate()
    }

    /// Number of cached corner and circle masks.
    package var cachedMaskCount: Int { corners.count + circles.count }

    /// Drops every cached mask and halving (scratch memory is kept).
    package func removeAll() {
        corners.removeAll()
        circles.removeAll()
        halvings.removeAll()
        halvingBytes = 0
    }

    /// The largest of `image` and its halvings that is drawn at half size or more at `size`
    /// pixels (bilinear reduction below ½ aliases). Halvings are made on first need and shared
    /// by every drawing of the same image.
    package func source(for size: Size, from image: PixelBuffer) -> PixelBuffer {
        func reduced(_ level: PixelBuffer) -> Bool { Self.drawsReduced(size, width: level.width, height: level.height) }
        // Most images are drawn at half size or more: no bookkeeping for them.
        guard reduced(image) else { return image }
        let key = ObjectIdentifier(image)
        uses += 1
        // Taken out and put back, so that appending a level does not copy the array.
        var entry = halvings.removeValue(forKey: key) ?? Halvings(image: image, levels: [], bytes: 0, lastUse: uses)
        var level = image, n = 0
        while reduced(level) {
            if n == entry.levels.count {
                let half = level.halved()
                entry.levels.append(half)
                entry.bytes += half.width * half.height * 4
                halvingBytes += half.width * half.height * 4
            }
            level = entry.levels[n]
            n += 1
        }
        entry.lastUse = uses
        halvings[key] = entry
        trimHalvings(keeping: key)
        return level
    }

    /// True when an image of `width` x `height` pixels drawn at `size` is below half size on
    /// both axes (with a half to take): bilinear sampling there aliases, so a halving is drawn.
    package static func drawsReduced(_ size: Size, width: Int, height: Int) -> Bool {
        size.width < Double(width) / 2 && size.height < Double(height) / 2 && width >= 2 && height >= 2
    }

    /// `halvingCount`, or for a picture drawn larger than its pixels, minus the doublings that
    /// enlargement needs (rounded up): the detail a vector picture is rendered at (-1: twice its size).
    package static func detailLevel(drawnAt size: Size, width: Int, height: Int) -> Int {
        let enlargement = max(size.width / Double(max(width, 1)), size.height / Double(max(height, 1)))
        guard enlargement.isFinite, enlargement > 1.001 else { return halvingCount(drawnAt: size, width: width, height: height) }
        var (rest, n) = (enlargement, 0)
        while rest > 1.001 && n < 16 { rest /= 2; n += 1 }
        return -n
    }

    /// How many halvings of a `width` x `height` image `source(for:from:)` draws `size` from.
    package static func halvingCount(drawnAt size: Size, width: Int, height: Int) -> Int {
        var (w, h, n) = (width, height, 0)
        while drawsReduced(size, width: w, height: h) { w = (w + 1) / 2; h = (h + 1) / 2; n += 1 }
        return n
    }

    /// `image` halved `times` times, taking the halvings already made for drawing it.
    package func halving(of image: PixelBuffer, times: Int) -> PixelBuffer {
        let made = halvings[ObjectIdentifier(image)]?.levels ?? []
        let taken = max(0, min(times, made.count))
        return (taken > 0 ? made[taken - 1] : image).halved(times: times - taken)
    }

    /// Drops the halvings of `image` (its owner released it: they would keep it alive).
    package func forgetHalvings(of image: PixelBuffer) {
        guard let entry = halvings.removeValue(forKey: ObjectIdentifier(image)) else { return }
        halvingBytes -= entry.bytes
    }

    private func trimHalvings(keeping key: ObjectIdentifier) {
        while halvingBytes > maximumHalvingBytes,
            let oldest = halvings.lazy.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            halvingBytes -= oldest.value.bytes
            halvings[oldest.key] = nil
        }
    }

    /// Scratch coverage rows, each at least `width` bytes.
    func scratchRows(width: Int) -> ScratchRows {
        let needed = max(width, 1) + 16
        if needed > rowCapacity {
            rowStorage.deallocate()
            rowStorage = .allocate(capacity: needed * RasterCache.scratchRowCount)
            rowStorage.initialize(repeating: 0, count: needed * RasterCache.scratchRowCount)
            rowCapacity = needed
        }
        return ScratchRows(base: rowStorage, stride: rowCapacity)
    }

    /// A zeroed accumulation buffer of at least `count` floats (the scan converter leaves it zeroed).
    func accumulator(count: Int) -> UnsafeMutablePointer<Float> {
        if count > accumulatorCapacity {
            accumulatorStorage.deallocate()
            accumulatorStorage = .allocate(capacity: count)
            accumulatorStorage.initialize(repeating: 0, count: count)
            accumulatorCapacity = count
        }
        return accumulatorStorage
    }

    func maskRow(count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > maskRowCapacity {
            maskRowStorage.deallocate()
            maskRowStorage = .allocate(capacity: count)
            maskRowStorage.initialize(repeating: 0, count: count)
            maskRowCapacity = count
        }
        return maskRowStorage
    }

    /// Coverage of one corner box of a rounded rectangle (see `RoundedRectShape`). `phaseX` is
    /// the fractional part (in 1/64) of the corner's vertical edge, `phaseY` of its horizontal
    /// edge; corner 0 = top-left, 1 = top-right, 2 = bottom-left, 3 = bottom-right.
    func cornerMask(radius64: Int, phaseX: Int, phaseY: Int, corner: Int) -> CoverageMask {
        let key = MaskKey(radius: radius64, phaseX: phaseX, phaseY: phaseY, corner: corner)
        if let m = corners[key] { return m }
        if corners.count >= maximumEntries { corners.removeAll() }
        let r = Double(radius64) / 64
        let big = 2 * r + 4
        func axis(_ phase: Double, leading: Bool) -> (size: Int, from: Double, to: Double) {
            if leading { return (Int((phase + r).rounded(.up)), phase, phase + big) }
            let edge = phase - (phase - r).rounded(.down)
            return (Int(phase.rounded(.up)) - Int((phase - r).rounded(.down)), edge - big, edge)
        }
        let ax = axis(Double(phaseX) / 64, leading: corner & 1 == 0)
        let ay = axis(Double(phaseY) / 64, leading: corner & 2 == 0)
        var path = Path()
        path.addRoundedRect(Rect(x: ax.from, y: ay.from, width: ax.to - ax.from, height: ay.to - ay.from), radius: r)
        let m = ScanConverter.mask(
            path.flattened(tolerance: RasterCache.curveTolerance), box: IntRect(x: 0, y: 0, width: ax.size, height: ay.size),
            rule: .nonZero, cache: self)
        corners[key] = m
        return m
    }

    /// Coverage of a circle of radius `radius64`/64 whose bounding box starts at the fractional
    /// offset (`phaseX`, `phaseY`)/64 inside the mask's first pixel.
    func circleMask(radius64: Int, phaseX: Int, phaseY: Int) -> CoverageMask {
        let key = MaskKey(radius: radius64, phaseX: phaseX, phaseY: phaseY)
        if let m = circles[key] { return m }
        let m = RasterCache.renderCircle(radius64: radius64, phaseX: phaseX, phaseY: phaseY, cache: self)
        if Double(radius64) / 64 <= RasterCache.maximumCachedRadius {
            if circles.count >= maximumEntries { circles.removeAll() }
            circles[key] = m
        }
        return m
    }

    static func renderCircle(radius64: Int, phaseX: Int, phaseY: Int, cache: RasterCache) -> CoverageMask {
        let r = Double(radius64) / 64, px = Double(phaseX) / 64, py = Double(phaseY) / 64
        var path = Path()
        path.addCircle(center: Point(px + r, py + r), radius: r)
        let box = IntRect(x: 0, y: 0, width: Int((px + 2 * r).rounded(.up)), height: Int((py + 2 * r).rounded(.up)))
        return ScanConverter.mask(path.flattened(tolerance: RasterCache.curveTolerance), box: box, rule: .nonZero, cache: cache)
    }
}

/// A few scratch coverage rows of `stride` bytes each.
@usableFromInline
struct ScratchRows {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let stride: Int
    @inlinable func row(_ i: Int) -> UnsafeMutablePointer<UInt8> { base + i * stride }
    @inlinable func offset(by rows: Int) -> ScratchRows { ScratchRows(base: base + rows * stride, stride: stride) }
    @usableFromInline init(base: UnsafeMutablePointer<UInt8>, stride: Int) { self.base = base; self.stride = stride }
}
