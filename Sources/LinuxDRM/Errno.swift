#if canImport(Glibc)
import Glibc
#endif

/// An errno value with its symbolic name, for errors people read. (swift-system's `Errno` is the
/// model; the package does not depend on swift-system, so this is the small part we need.)
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current errno.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let operationNotPermitted = Errno(rawValue: EPERM)
    public static let resourceBusy = Errno(rawValue: EBUSY)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let badAddress = Errno(rawValue: EFAULT)
    public static let wouldBlock = Errno(rawValue: EAGAIN)

    static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
        EEXIST: "EEXIST", ENODEV: "ENODEV", EINVAL: "EINVAL", ENOSPC: "ENOSPC", ENOSYS: "ENOSYS",
        EOPNOTSUPP: "EOPNOTSUPP",
    ]

    public var name: String { Errno.names[rawValue] ?? "errno \(rawValue)" }
    public var description: String { "\(name): \(String(cString: strerror(rawValue)))" }
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
