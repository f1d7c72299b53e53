import Testing

/// Glide's physics must give the same doubles on x86_64 and aarch64, so a multiply and
/// an add are never fused into one rounding behind the code's back: aarch64 has a fused
/// multiply-add in every core and C compilers contract `a * b + c` into it by default. Swift does
/// not (fusing is asked for by name, `addingProduct`); this holds it to that in whatever build the
/// tests run, debug or release, on either architecture (`Board/cross.sh aarch64 test`).
@Suite struct ContractionTests {
    /// Kept out of the optimiser's sight so the sum is computed at run time.
    @inline(never) static func opaque(_ x: Double) -> Double { x }

    @Test func aProductAndASumRoundTwice() {
        // (1 + 2⁻³⁰)² = 1 + 2⁻²⁹ + 2⁻⁶⁰: the product rounds the 2⁻⁶⁰ away, a fused one keeps it.
        let a = Self.opaque(1 + 0x1p-30), c = Self.opaque(-(1 + 0x1p-29))
        #expect(a * a + c == 0)
        #expect(c.addingProduct(a, a) == 0x1p-60)  // the fused operation, when asked for
    }
}
