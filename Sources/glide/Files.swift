#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs

struct FileError: Error, CustomStringConvertible {
    var description: String
}

/// Reads a whole text file, or standard input for "-".
func readText(_ path: String) throws -> String {
    String(decoding: try FileIO.readAll(path: path == "-" ? "/dev/stdin" : path), as: UTF8.self)
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

/// Writes a text file (replacing it whole, never half-written).
func writeText(_ text: String, to path: String) throws {
    try FileIO.writeAll(Array(text.utf8), path: path)
}
