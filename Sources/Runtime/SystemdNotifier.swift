#if canImport(Glibc)
import Glibc
#endif

/// sd_notify over the NOTIFY_SOCKET datagram socket (no libsystemd): READY=1 once the first
/// frame is up, WATCHDOG=1 at half the unit's WatchdogSec, STOPPING=1 on the way out.
package final class SystemdNotifier {
    let socketFD: Int32
    var address = sockaddr_un()
    var addressLength: socklen_t = 0
    /// Half of WATCHDOG_USEC in seconds, when the unit asks for a watchdog.
    package let watchdogInterval: Double?

    package init?() {
        guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty,
            path.hasPrefix("/") || path.hasPrefix("@")
        else { return nil }
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        socketFD = fd
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if bytes[0] == UInt8(ascii: "@") { raw[0] = 0 }  // abstract namespace
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == UInt8(ascii: "@") ? 0 : 1))
        if let w = getenv("WATCHDOG_USEC").map({ String(cString: $0) }), let usec = Double(w), usec > 0 {
            watchdogInterval = usec / 2_000_000
        } else {
            watchdogInterval = nil
        }
    }

    deinit { close(socketFD) }

    package func notify(_ state: String) {
        var a = address
        let len = addressLength
        _ = state.withCString { s in
            withUnsafePointer(to: &a) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sp in
                    sendto(socketFD, s, strlen(s), Int32(MSG_NOSIGNAL), sp, len)
                }
            }
        }
    }
}
