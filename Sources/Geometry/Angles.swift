#if canImport(Glibc)
import Glibc
#endif

/// The cosine of an angle in degrees, exact at multiples of 90 (a quarter turn maps pixels onto
/// pixels, with no rounding error to blur them).
package func cosine(degrees: Double) -> Double {
    let r = degrees.truncatingRemainder(dividingBy: 360)
    switch r {
    case 0: return 1
    case 90, -270: return 0
    case 180, -180: return -1
    case 270, -90: return 0
    default: return cos(r * .pi / 180)
    }
}

/// The sine of an angle in degrees, exact at multiples of 90.
package func sine(degrees: Double) -> Double {
    let r = degrees.truncatingRemainder(dividingBy: 360)
    switch r {
    case 0, 180, -180: return 0
    case 90, -270: return 1
    case 270, -90: return -1
    default: return sin(r * .pi / 180)
    }
}
