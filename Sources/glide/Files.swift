#if canImport(Glibc)
import Glibc
#endif

struct FileError: Error, CustomStringConvertible {
    var description: String
}

/// Reads a whole text file (or standard input for "-") with POSIX calls; no Foundation.
func readText(_ path: String) throws -> String {
    let fd = path == "-" ? 0 : open(path, O_RDONLY)
    guard fd >= 0 else { throw FileError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { if fd != 0 { close(fd) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw FileError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > 256 << 20 { throw FileError(description: "\(path) is larger than 256 MB") }
    }
    return String(decoding: bytes, as: UTF8.self)
}

func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Creates `path` and its parents (like mkdir -p).
func makeDirectory(_ path: String) throws {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw FileError(description: "cannot create \(current): \(String(cString: strerror(errno)))")
        }
    }
}

/// Writes a text file (replacing it).
func writeText(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var remaining = Array(text.utf8)[...]
    while !remaining.isEmpty {
        let n = remaining.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 { if errno == EINTR { continue }; throw FileError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        remaining = remaining.dropFirst(n)
    }
}
