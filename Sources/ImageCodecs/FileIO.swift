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

    /// Writes `bytes` to `path` whole: into a new temporary file beside it, flushed to the disk,
    /// then renamed over it, so a reader or a power cut sees the old file or the new one, never
    /// half of each. The temporary file has an unpredictable name (`.NAME.tmp-PID-RANDOM`) and
    /// is created exclusively without following links, so a link planted in the folder cannot
    /// redirect the write. A symbolic link at `path` is replaced, never followed: the file it
    /// pointed to is left untouched. An existing file keeps its permissions (and, for root, its
    /// owner) unless `keepsMode` is false; a new one gets `mode` whatever the umask. `durable`
    /// also flushes the folder, so the new name itself survives a power cut (a config).
    package static func writeAll(
        _ bytes: [UInt8], path: String, mode: mode_t = 0o644, keepsMode: Bool = true, durable: Bool = false
    ) throws(ImageCodecError) {
        var old = stat()
        let keeps = keepsMode && lstat(path, &old) == 0 && old.st_mode & S_IFMT == S_IFREG
        let (temporary, fd) = try createTemporary(beside: path)
        var failure = writeFully(fd, bytes, path: path)
        if failure == nil && fchmod(fd, keeps ? old.st_mode & 0o777 : mode) != 0 {
            failure = .io(operation: "chmod", path: path, errno: errno)
        }
        // Root replacing another user's file gives it back to that user; anyone else cannot.
        if failure == nil && keeps && geteuid() == 0 && (old.st_uid != 0 || old.st_gid != 0) {
            if fchown(fd, old.st_uid, old.st_gid) != 0 {
                failure = .io(operation: "chown", path: path, errno: errno)
            }
        }
        // The rename alone keeps readers from a half file; only what must survive a power cut (a
        // config) waits for the disk, not the screenshots and state files of every rest.
        if failure == nil && durable && fsync(fd) != 0 { failure = .io(operation: "fsync", path: path, errno: errno) }
        if sys_close(fd) != 0 && failure == nil { failure = .io(operation: "close", path: path, errno: errno) }
        if failure == nil && sys_rename(temporary, path) != 0 { failure = .io(operation: "rename", path: path, errno: errno) }
        if let failure {
            _ = sys_unlink(temporary)
            throw failure
        }
        if durable { syncFolder(of: path) }
    }

    /// A new, empty file beside `path` with a name no other process can guess, opened for
    /// writing. Errors name `path` (what the caller asked for), not the temporary file.
    static func createTemporary(beside path: String) throws(ImageCodecError) -> (path: String, fd: Int32) {
        let (folder, name) = split(path)
        guard !name.isEmpty else { throw .io(operation: "open", path: path, errno: EISDIR) }
        var generator = SystemRandomNumberGenerator()
        while true {
            let suffix = String(generator.next() as UInt64, radix: 16)
            let temporary = folder + "." + name + ".tmp-\(getpid())-" + suffix
            do {
                return (temporary, try openRetrying(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600))
            } catch {
                guard case .io(let operation, _, let code) = error else { throw error }
                // Taken by chance (or by someone guessing): another name.
                if code == EEXIST { continue }
                throw .io(operation: operation, path: path, errno: code)
            }
        }
    }

    /// `bytes` written to `fd` whole; the error (naming `path`) when a write failed.
    static func writeFully(_ fd: Int32, _ bytes: [UInt8], path: String) -> ImageCodecError? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = sys_write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .io(operation: "write", path: path, errno: errno)
                }
                offset += n
            }
            return nil
        }
    }

    /// The folder part of `path` with its slash ("" for the working folder) and the name.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// Flushes the folder holding `path`, so a rename in it is on the disk. Best effort: some
    /// file systems cannot sync a folder, and the file itself is already safe.
    static func syncFolder(of path: String) {
        let folder = split(path).folder
        guard let fd = try? openRetrying(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY, 0) else { return }
        _ = fsync(fd)
        _ = sys_close(fd)
    }
}

/// A file written a piece at a time (an input recording): each `append` goes straight to the
/// file, so what was written survives a crash. A failed write is counted, not thrown: a
/// recording must never stop the loop that feeds it.
package final class AppendingFile {
    let fd: Int32
    package let path: String
    package private(set) var failedWrites = 0

    /// Replaces `path` with a new, empty file, as `FileIO.writeAll` would (a link at `path` is
    /// replaced, not followed), and keeps it open for appending.
    package init(path: String) throws(ImageCodecError) {
        self.path = path
        FileIO.removeLeftovers(of: path)
        var old = stat()
        let keeps = lstat(path, &old) == 0 && old.st_mode & S_IFMT == S_IFREG
        let (temporary, fd) = try FileIO.createTemporary(beside: path)
        guard fchmod(fd, keeps ? old.st_mode & 0o777 : 0o644) == 0, sys_rename(temporary, path) == 0 else {
            let code = errno
            _ = sys_close(fd)
            _ = sys_unlink(temporary)
            throw .io(operation: "create", path: path, errno: code)
        }
        self.fd = fd
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

extension FileIO {
    /// Removes what an interrupted `writeAll` left beside `path`: its temporary files, in this
    /// naming (`.NAME.tmp-PID-RANDOM`) and the older one (`NAME.tmp-PID`). A writer calls it
    /// once, before it first writes `path`. A temporary file of a process still running is
    /// kept (it may be renamed any moment); this process's own are old, as it has not yet written.
    package static func removeLeftovers(of path: String) {
        let (folder, name) = split(path)
        removeLeftovers(inFolder: folder.isEmpty ? "." : folder) { $0 == name }
    }

    /// Removes the temporary files of interrupted writes of any file in `folder` (a folder the
    /// caller writes into alone, as a run's output folder).
    package static func removeLeftovers(inFolder folder: String) {
        removeLeftovers(inFolder: folder) { _ in true }
    }

    static func removeLeftovers(inFolder folder: String, of target: (Substring) -> Bool) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard let (file, pid) = temporaryTarget(name), target(file), pid == getpid() || !isRunning(pid) else { continue }
            var info = stat()
            let path = folder + "/" + name
            // Files and planted links only: a folder of that name is nobody's temporary file.
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFLNK else { continue }
            _ = sys_unlink(path)
        }
    }

    /// The target's name and the writer's process of a temporary file name, nil for any other
    /// name: `.NAME.tmp-PID-HEX` or `NAME.tmp-PID`.
    static func temporaryTarget(_ name: String) -> (Substring, pid_t)? {
        var found: Range<String.Index>?
        while let next = name[(found.map { name.index(after: $0.lowerBound) } ?? name.startIndex)...].firstRange(of: ".tmp-") {
            found = next
        }
        guard let marker = found else { return nil }
        let tail = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
        let hex: (Substring) -> Bool = { !$0.isEmpty && $0.count <= 16 && $0.allSatisfy(\.isHexDigit) }
        guard let first = tail.first, digits(first), let pid = pid_t(first) else { return nil }
        if tail.count == 2, name.hasPrefix("."), hex(tail[1]) {
            let file = name[name.index(after: name.startIndex)..<marker.lowerBound]
            return file.isEmpty ? nil : (file, pid)
        }
        guard tail.count == 1, marker.lowerBound > name.startIndex else { return nil }
        return (name[..<marker.lowerBound], pid)
    }

    /// Whether process `pid` exists (EPERM: it does, someone else's).
    static func isRunning(_ pid: pid_t) -> Bool { pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) }
}
