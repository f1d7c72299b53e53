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
