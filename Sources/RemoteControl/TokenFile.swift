import Geometry
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// A file of named tokens (`--remote-tokens FILE`): one token a line, `NAME SCOPE TOKEN`, with
/// `#` comments and blank lines, scopes `view`, `control` and `admin`:
///
///     # name       scope    token
///     dashboard    view     Hq3v9yZk2LwP8sRt
///     fleet        admin    7fM2xQ9pL4vK8nW3
///
/// Like ssh with a private key, a file that its group or others may read or write is refused:
/// the tokens would not be secret.
package enum TokenFile {
    /// A token file is small; a larger one is a mistake (or a hostile file).
    static let maxBytes = 64 * 1024
    static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@".unicodeScalars)

    /// Reads and checks the file.
    package static func load(path: String) throws(RemoteError) -> [RemoteToken] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .tokenFile(path: path, line: nil, problem: String(cString: strerror(errno))) }
        if info.st_mode & 0o066 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw .tokenFile(
                path: path, line: nil, problem: "its mode is \(mode): group or others may read or write it (chmod 600 \(path))")
        }
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path: path, limit: maxBytes) } catch {
            throw .tokenFile(path: path, line: nil, problem: "\(error)")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// What tells that the file was replaced or written: its inode, size and time of change.
    static func signature(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    }

    /// The tokens of a file's text; `path` names it in errors.
    package static func parse(_ text: String, path: String) throws(RemoteError) -> [RemoteToken] {
        var tokens: [RemoteToken] = []
        for (index, line) in textLines(text).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            func fail(_ problem: String) -> RemoteError { .tokenFile(path: path, line: index + 1, problem: problem) }
            guard fields.count == 3 else { throw fail("expected NAME SCOPE TOKEN, found \(fields.count) fields") }
            let name = String(fields[0])
            guard name.utf8.count <= 64, name.unicodeScalars.allSatisfy(nameCharacters.contains) else {
                throw fail("the name '\(excerpt(name, limit: 40))' is not letters, digits, - _ . or @ (at most 64)")
            }
            guard let scope = RemoteScope(name: String(fields[1])) else {
                throw fail("scope '\(excerpt(String(fields[1]), limit: 20))': use view, control or admin")
            }
            let secret = String(fields[2])
            guard isAcceptableToken(secret) else {
                throw fail("the token of '\(name)' is too weak: \(tokenRule) (it is not repeated here)")
            }
            guard !tokens.contains(where: { $0.name == name }) else { throw fail("'\(name)' is named twice") }
            guard !tokens.contains(where: { $0.secret == secret }) else { throw fail("the token of '\(name)' is another name's too") }
            tokens.append(RemoteToken(name: name, scope: scope, secret: secret))
        }
        guard !tokens.isEmpty else { throw .tokenFile(path: path, line: nil, problem: "it names no token") }
        return tokens
    }
}
