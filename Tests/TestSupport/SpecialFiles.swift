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

/// A new private folder under /tmp whose name starts with `prefix` (mkdtemp). The name is read
/// back from the template after the call, never through the pointer mkdtemp returns: that
/// points into the template's storage, which an optimised build may free as soon as the
/// closure that lent it returns (a release build then copied the name from freed memory).
public func makeTemporaryFolder(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    guard made else { throw SpecialFileError(path: "/tmp/\(prefix)-XXXXXX", errno: errno) }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The names in `folder`, sorted, without `.` and `..`.
public func folderEntries(_ folder: String) throws -> [String] {
    guard let dir = opendir(folder) else { throw SpecialFileError(path: folder, errno: errno) }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}
