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

/// Minutes since local midnight on the wall clock (the system's time zone): what a schedule of
/// the day reads. Wall time, not the loop's: it may jump when the clock is set.
package func localMinuteOfDay() -> Int {
    var now = time(nil)
    var parts = tm()
    guard localtime_r(&now, &parts) != nil else { return 0 }
    return Int(parts.tm_hour) * 60 + Int(parts.tm_min)
}

/// The wall clock's local time as seconds since 1970-01-01 00:00 in the system's time zone: Unix
/// time plus the zone's offset at this moment (`localtime_r`'s `tm_gmtoff`, so summer time is
/// in it). What `DisplaySchedule` reads; it may jump when the clock is set.
package func localWallSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    var now = ts.tv_sec
    var parts = tm()
    let offset = localtime_r(&now, &parts) != nil ? Int(parts.tm_gmtoff) : 0
    return Double(Int(ts.tv_sec) + offset) + Double(ts.tv_nsec) / 1_000_000_000
}
