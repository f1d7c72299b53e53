#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Thin aliases so the physics reads like the formulas; libm, not Foundation.
@usableFromInline func _exp(_ x: Double) -> Double { exp(x) }
@usableFromInline func _log(_ x: Double) -> Double { log(x) }
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@usableFromInline func _pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }

/// `seconds` in whole microseconds (non-finite: `Int64.max`). Times compared this way are equal
/// when they should be: in seconds, 2.426 - 2.326 is 0.10000000000000009.
package func wholeMicroseconds(_ seconds: Double) -> Int64 {
    seconds.isFinite ? Int64((seconds * 1_000_000).rounded()) : .max
}
