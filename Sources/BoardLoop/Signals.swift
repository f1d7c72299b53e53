#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe, read by the C signal handler (async-signal-safe: one write).
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// SIGINT/SIGTERM (quit), SIGUSR1/SIGUSR2 (release/retake the display) delivered through a
/// self-pipe so the loop sees them in poll(2). (signalfd is not visible through Swift's Glibc
/// module; a self-pipe does the same with plain calls.)
final class SignalPipe {
    let readFD: Int32
    let writeFD: Int32
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGUSR1, SIGUSR2]

    init() throws(BoardLoopError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system(operation: "pipe", errno: errno) }
        readFD = fds[0]; writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteFD = writeFD
        for s in SignalPipe.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                var b = UInt8(truncatingIfNeeded: signo)
                let saved = errno
                _ = write(signalPipeWriteFD, &b, 1)
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
    }

    deinit {
        for s in SignalPipe.handled { signal(s, SIG_DFL) }
        signalPipeWriteFD = -1
        close(readFD); close(writeFD)
    }

    /// The signals that arrived since the last call.
    func drain() -> [Int32] {
        var out: [Int32] = []
        var buf = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buf.withUnsafeMutableBytes { read(readFD, $0.baseAddress, 64) }
            if n <= 0 { break }
            out.append(contentsOf: buf[0..<n].map { Int32($0) })
        }
        return out
    }
}

/// sd_notify over the NOTIFY_SOCKET datagram socket (no libsystemd): READY=1 once the first
/// frame is up, WATCHDOG=1 at half the unit's WatchdogSec, STOPPING=1 on the way out.
final class SystemdNotifier {
    let socketFD: Int32
    var address = sockaddr_un()
    var addressLength: socklen_t = 0
    /// Half of WATCHDOG_USEC in seconds, when the unit asks for a watchdog.
    let watchdogInterval: Double?

    init?() {
        guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty,
              path.hasPrefix("/") || path.hasPrefix("@") else { return nil }
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        socketFD = fd
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            if bytes[0] == UInt8(ascii: "@") { raw[0] = 0 }   // abstract namespace
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == UInt8(ascii: "@") ? 0 : 1))
        if let w = getenv("WATCHDOG_USEC").map({ String(cString: $0) }), let usec = Double(w), usec > 0 {
            watchdogInterval = usec / 2_000_000
        } else {
            watchdogInterval = nil
        }
    }

    deinit { close(socketFD) }

    func notify(_ state: String) {
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
