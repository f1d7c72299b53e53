#if canImport(Glibc)
import Glibc
#endif

/// An errno value with its symbolic name, for errors people read. (swift-system's `Errno` is the
/// model; the package does not depend on swift-system, so this is the small part we need.)
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current errno.
    package static var current: Errno { Errno(rawValue: errno) }

    package static let permissionDenied = Errno(rawValue: EACCES)
    package static let operationNotPermitted = Errno(rawValue: EPERM)
    package static let resourceBusy = Errno(rawValue: EBUSY)
    package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    package static let noSuchDevice = Errno(rawValue: ENODEV)
    package static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    package static let invalidArgument = Errno(rawValue: EINVAL)
    package static let interrupted = Errno(rawValue: EINTR)
    package static let badFileDescriptor = Errno(rawValue: EBADF)
    package static let badAddress = Errno(rawValue: EFAULT)
    package static let wouldBlock = Errno(rawValue: EAGAIN)

    static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
        EEXIST: "EEXIST", ENODEV: "ENODEV", EINVAL: "EINVAL", ENOSPC: "ENOSPC", ENOSYS: "ENOSYS",
        EOPNOTSUPP: "EOPNOTSUPP",
    ]

    package var name: String { Errno.names[rawValue] ?? "errno \(rawValue)" }
    package var description: String { "\(name): \(String(cString: strerror(rawValue)))" }
}

/// Runs a C call that reports failure as a negative return value with errno set, retrying on
/// EINTR (swift-system's `valueOrErrno(retryOnInterrupt:)`).
@inline(__always)
func valueOrErrno<T: SignedInteger>(retryOnInterrupt: Bool = true, _ body: () -> T) -> Result<T, Errno> {
    while true {
        let r = body()
        if r >= 0 { return .success(r) }
        let e = Errno.current
        if retryOnInterrupt && e.rawValue == EINTR { continue }
        return .failure(e)
    }
}

/// Errnos that only a bug of ours can produce (a closed descriptor, a bad pointer): trap, never
/// throw (swift-nio's `preconditionIsNotUnacceptableErrno`).
func preconditionIsNotOurBug(_ e: Errno, _ operation: String) {
    precondition(e.rawValue != EBADF && e.rawValue != EFAULT, "\(operation) failed with \(e): a bug in Glide")
}
