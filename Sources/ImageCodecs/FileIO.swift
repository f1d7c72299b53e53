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

extension String {
    /// The text with each NUL shown as `\0`.
    var replacingNUL: String { String(unicodeScalars.map { $0 == "\0" ? "\\0" : String($0) }.joined()) }
}

package enum FileIO {
    /// Ceilings for what is read into memory, per kind of file.
    package static let maxImageBytes = 64 << 20
    package static let maxManifestBytes = 4 << 20
    package static let maxScriptBytes = 64 << 20

    static func openRetrying(_ path: String, _ flags: Int32, _ mode: mode_t) throws(ImageCodecError) -> Int32 {
        // C would stop at the NUL and open the path before it: a path with one names no file.
        guard !path.utf8.contains(0) else {
            throw .io(operation: "open", path: path.replacingNUL, errno: EINVAL)
        }
        while true {
            let fd = sys_open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .io(operation: "open", path: path, errno: errno) }
        }
    }

    /// The whole file, or a thrown error (missing, unreadable, over `limit`, or not a regular
    /// file). A FIFO, device, socket or directory is refused without blocking: opened
    /// non-blocking and checked before reading, so a FIFO named as an image cannot hang the
    /// app and /dev/zero is not read up to the limit. `allowingStreams` accepts pipes and
    /// terminals too (standard input), still within `limit`.
    package static func readAll(
        path: String, limit: Int = maxImageBytes,
        allowingStreams: Bool = false
    ) throws(ImageCodecError) -> [UInt8] {
        let fd = try openRetrying(path, O_RDONLY | O_NONBLOCK, 0)
        defer { _ = sys_close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(operation: "fstat", path: path, errno: errno) }
        let type = info.st_mode & S_IFMT
        if type == S_IFREG {
            if Int(info.st_size) > limit { throw .fileTooLarge(path: path, limit: limit) }
        } else {
            let stream = type == S_IFIFO || (type == S_IFCHR && !isMemoryDevice(info))
            guard allowingStreams && stream else { throw .notARegularFile(path: path, found: describe(type)) }
        }
        // Blocking reads from here: a pipe waits for its writer like any reader of stdin.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
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

    /// /dev/zero, /dev/urandom and the other memory devices (major number 1): never a stream
    /// worth reading, as /dev/zero never ends.
    static func isMemoryDevice(_ info: stat) -> Bool { (info.st_rdev >> 8) & 0xFFF == 1 }

    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    /// Writes `bytes` to a temporary file next to `path` and renames it into place, so a
    /// reader never sees a half-written image. `mode` is set whatever the umask; `durable`
    /// flushes the file to the disk before the rename (a config must survive a power cut).
    package static func writeAll(_ bytes: [UInt8], path: String, mode: mode_t = 0o644, durable: Bool = false) throws(ImageCodecError) {
        let temporary = path + ".tmp-\(getpid())"
        // Errors name `path` (what the caller asked for), not the temporary file.
        let fd: Int32
        do {
            fd = try openRetrying(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
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
        if failure == nil && fchmod(fd, mode) != 0 { failure = .io(operation: "chmod", path: path, errno: errno) }
        if failure == nil && durable && fsync(fd) != 0 { failure = .io(operation: "fsync", path: path, errno: errno) }
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
package final class AppendingFile {
    let fd: Int32
    package let path: String
    package private(set) var failedWrites = 0

    /// Creates or truncates `path`.
    package init(path: String) throws(ImageCodecError) {
        self.path = path
        fd = try FileIO.openRetrying(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    deinit { _ = sys_close(fd) }

    package func append(_ text: String) {
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
    package static func makeDirectory(_ path: String) throws(ImageCodecError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .io(operation: "mkdir", path: current, errno: errno) }
        }
    }
}
