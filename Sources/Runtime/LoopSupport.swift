#if canImport(Glibc)
import Glibc
#endif

/// A failed system call the caller cannot fix (no file descriptors left, ...).
package struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    package var operation: String
    package var errno: Int32
    package init(operation: String, errno: Int32) { self.operation = operation; self.errno = errno }
    package var description: String { "\(operation) failed: \(String(cString: strerror(errno)))" }
}

/// A self-pipe a poll(2) loop watches: other threads and signal handlers wake the loop with one
/// write(2), the only async-signal-safe way to reach it (signalfd is not visible through Swift's
/// Glibc module).
package final class WakePipe: Sendable {
    package let readFD: Int32
    package let writeFD: Int32

    package init() throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemCallError(operation: "pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readFD = fds[0]; writeFD = fds[1]
    }

    deinit {
        if signalWakeFD == writeFD {
            for s in caughtSignals { signal(s, SIG_DFL) }
            signalWakeFD = -1
        }
        close(readFD); close(writeFD)
    }

    /// Wakes the loop (from any thread).
    package func wake(_ byte: UInt8 = 0) {
        var b = byte
        _ = write(writeFD, &b, 1)
    }

    /// The bytes written since the last call (signal numbers, for caught signals).
    package func drain() -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buf.withUnsafeMutableBytes { read(readFD, $0.baseAddress, 64) }
            if n <= 0 { break }
            out.append(contentsOf: buf[0..<n])
        }
        return out
    }

    /// Delivers `signals` into this pipe as their numbers. One pipe per process receives
    /// signals (the last to call); its deinit restores the default handlers.
    package func catchSignals(_ signals: [Int32]) {
        signalWakeFD = writeFD
        caughtSignals = signals
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                var b = UInt8(truncatingIfNeeded: signo)
                let saved = errno
                _ = write(signalWakeFD, &b, 1)
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
    }
}

/// Read by the C signal handler; process-wide by nature (signal dispositions are).
nonisolated(unsafe) private var signalWakeFD: Int32 = -1
nonisolated(unsafe) private var caughtSignals: [Int32] = []
