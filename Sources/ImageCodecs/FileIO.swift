#if canImport(Glibc)
import Glibc
#endif

// Plain POSIX file access (no Foundation). The `sys_` functions are the only call sites of the
// C functions; `FileIO` adds EINTR retries and turns -1 + errno into `ImageCodecError.io`.

@inline(__always) func sys_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
@inline(__always) func sys_read(_ fd: Int32, _ buf: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, buf, n) }
@inline(__always) func sys_write(_ fd: Int32, _ buf: UnsafeRawPointer, _ n: Int) -> Int { write(fd, buf, n) }
@inline(__always) func sys_close(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) func sys_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
@inline(__always) func sys_unlink(_ path: String) -> Int32 { unlink(path) }

public enum FileIO {
    /// Default ceiling for image files read into memory.
    public static let maxFileBytes = 256 << 20

    static func openRetrying(_ path: String, _ flags: Int32, _ mode: mode_t) throws(ImageCodecError) -> Int32 {
        while true {
            let fd = sys_open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .io(operation: "open", path: path, errno: errno) }
        }
    }

    /// The whole file, or a thrown error (missing, unreadable, directory, over `limit`).
    public static func readAll(path: String, limit: Int = maxFileBytes) throws(ImageCodecError) -> [UInt8] {
        let fd = try openRetrying(path, O_RDONLY, 0)
        defer { _ = sys_close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { sys_read(fd, $0.baseAddress!, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(operation: "read", path: path, errno: errno)
            }
            if bytes.count + n > limit { throw .fileTooLarge(path: path, limit: limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes `bytes` to a temporary file next to `path` and renames it into place, so a
    /// reader never sees a half-written image.
    public static func writeAll(_ bytes: [UInt8], path: String) throws(ImageCodecError) {
        let temporary = path + ".tmp-\(getpid())"
        // Errors name `path` (what the caller asked for), not the temporary file.
        let fd: Int32
        do {
            fd = try openRetrying(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } catch {
            guard case .io(let operation, _, let code) = error else { throw error }
            throw .io(operation: operation, path: path, errno: code)
        }
        var offset = 0
        var failure: ImageCodecError? = nil
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = sys_write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .io(operation: "write", path: path, errno: errno)
                    return
                }
                offset += n
            }
        }
        if sys_close(fd) != 0 && failure == nil { failure = .io(operation: "close", path: path, errno: errno) }
        if failure == nil && sys_rename(temporary, path) != 0 { failure = .io(operation: "rename", path: path, errno: errno) }
        if let failure {
            _ = sys_unlink(temporary)
            throw failure
        }
    }
}

/// A file written a piece at a time (an input recording): each `append` goes straight to the
/// file, so what was written survives a crash. A failed write is counted, not thrown: a
/// recording must never stop the loop that feeds it.
public final class AppendingFile {
    let fd: Int32
    public let path: String
    public private(set) var failedWrites = 0

    /// Creates or truncates `path`.
    public init(path: String) throws(ImageCodecError) {
        self.path = path
        fd = try FileIO.openRetrying(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    deinit { _ = sys_close(fd) }

    public func append(_ text: String) {
        var text = text
        text.withUTF8 { raw in
            var offset = 0
            while offset < raw.count {
                let n = sys_write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failedWrites += 1
                    return
                }
                offset += n
            }
        }
    }
}

extension FileIO {
    /// Creates `path` and its parents (like mkdir -p).
    public static func makeDirectory(_ path: String) throws(ImageCodecError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .io(operation: "mkdir", path: current, errno: errno) }
        }
    }
}
