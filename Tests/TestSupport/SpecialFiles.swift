#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with the path of a new, empty FIFO (opening it for reading would block until a
/// writer comes), removed afterwards.
public func withTemporaryFIFO(_ body: (String) throws -> Void) throws {
    let path = "/tmp/glide-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).fifo"
    guard mkfifo(path, 0o600) == 0 else { throw SpecialFileError(path: path, errno: errno) }
    defer { unlink(path) }
    try body(path)
}

/// The files a hostile config names as content: a FIFO, then /dev/zero (which never ends).
public func forEachSpecialFile(_ body: (String) throws -> Void) throws {
    try withTemporaryFIFO(body)
    try body("/dev/zero")
}

public struct SpecialFileError: Error {
    public var path: String
    public var errno: Int32
}
