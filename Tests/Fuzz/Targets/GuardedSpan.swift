import Raster

/// A pixel span whose rows are followed by padding (an odd stride) and which sits between two
/// guard rows. Drawing code that writes outside the span's width or rows changes the guard
/// words, which AddressSanitizer alone would not see: they are inside the allocation.
struct GuardedSpan: ~Copyable {
    static let guardWord: UInt32 = 0xDEAD_BEEF
    let width: Int, height: Int, stride: Int
    private let storage: UnsafeMutablePointer<UInt32>
    private var count: Int { stride * (height + 2) }

    init(width: Int, height: Int, padding: Int, fill: UInt32) {
        self.width = width; self.height = height; stride = width + padding
        storage = .allocate(capacity: stride * (height + 2))
        storage.initialize(repeating: Self.guardWord, count: stride * (height + 2))
        for y in 0..<height { (storage + (y + 1) * stride).update(repeating: fill, count: width) }
    }

    deinit { storage.deallocate() }

    var span: PixelSpan { PixelSpan(base: storage + stride, width: width, height: height, stride: stride) }

    /// Every word outside the span still holds the guard; every pixel inside is premultiplied.
    func check() {
        for i in 0..<count {
            let row = i / stride - 1, column = i % stride
            let p = storage[i]
            if row >= 0 && row < height && column < width {
                expectPremultiplied(p, x: column, y: row)
            } else {
                expect(p == Self.guardWord, "write outside the span at row \(row), column \(column) (width \(width), stride \(stride))")
            }
        }
    }
}
