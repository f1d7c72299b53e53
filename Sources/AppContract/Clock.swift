#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in seconds: the one timeline of real-time loops, libinput's event times and
/// DRM's flip times.
package func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
}
