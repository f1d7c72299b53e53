import AppContract
import Geometry
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// Reading a token file from disk. Like ssh with a private key, a file that its group or others
/// may read or write is refused: the tokens would not be secret.
extension TokenFile {
    /// A token file is small; a larger one is a mistake (or a hostile file).
    static let maxBytes = 64 * 1024

    /// Reads and checks the file.
    package static func load(path: String) throws(RemoteError) -> [RemoteToken] {
        if let problem = SecretFile.looseness(of: path) { throw .tokenFile(path: path, line: nil, problem: problem) }
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path, limit: maxBytes) } catch {
            throw .tokenFile(path: path, line: nil, problem: "\(error)")
        }
        do { return try parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw .tokenFile(path: path, line: error.line, problem: error.problem)
        }
    }

    /// What tells that the file was replaced or written: its inode, size and time of change.
    static func signature(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    }

}
