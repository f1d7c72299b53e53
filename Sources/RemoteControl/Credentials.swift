import AppContract
import FoundationEssentials
import Geometry
import HTTPTypes
import NIOConcurrencyHelpers

/// Who made a request: a token's name and scope (the log's "who"), and the keyring's version of
/// that token, so that a live session knows when its token has been replaced.
struct Caller: Sendable, Equatable {
    var name: String
    var scope: RemoteScope
    var version: Int

    /// A loopback server without tokens: whoever can reach it may do everything.
    static let local = Caller(name: "local", scope: .admin, version: 0)
}

/// The tokens a server accepts, replaceable while it runs. A request proves who it is by
/// `Authorization: Bearer TOKEN`, HTTP Basic with the token as the password (what a browser asks a
/// person for on `/live`), or, for the live view only, the session cookie its page set for that
/// token (a browser sends it with the page's socket, so the token is never put in a URL, where
/// logs would keep it).
final class Keyring: Sendable {
    static let cookie = "glide_live"

    private struct Entry {
        var token: RemoteToken
        var secret: [UInt8]
        /// Random for each token and server: the cookie proves the page was opened with the token.
        var session: [UInt8]
        var version: Int
    }
    private let entries: NIOLockedValueBox<(list: [Entry], nextVersion: Int)>

    init(_ tokens: [RemoteToken]) {
        entries = NIOLockedValueBox(([], 1))
        replace(with: tokens)
    }

    /// Puts `tokens` in force. A token whose secret and scope are unchanged keeps its version (its
    /// sessions go on); any other gets a new one, and its old cookie and sessions end.
    /// Returns the names of the tokens added, changed or removed.
    @discardableResult
    func replace(with tokens: [RemoteToken]) -> [String] {
        entries.withLockedValue { state in
            var changed: [String] = []
            var list: [Entry] = []
            for token in tokens {
                if let old = state.list.first(where: { $0.token == token }) {
                    list.append(old)
                    continue
                }
                changed.append(token.name)
                list.append(Entry(token: token, secret: Array(token.secret.utf8), session: Self.newSession(), version: state.nextVersion))
                state.nextVersion += 1
            }
            changed += state.list.map(\.token.name).filter { name in !tokens.contains { $0.name == name } }
            state.list = list
            return changed
        }
    }

    /// The caller the headers prove, or nil. Every token is compared, each in the same time
    /// whatever its first differing byte, so the time taken says nothing of which came close.
    func identify(_ headers: HTTPFields, session allowSession: Bool) -> Caller? {
        let given = Self.presented(headers)
        let cookies = allowSession ? Self.sessionCookies(headers) : []
        return entries.withLockedValue { state in
            var found: Caller?
            for entry in state.list {
                var matches = false
                for secret in given where Self.same(secret, entry.secret) { matches = true }
                for cookie in cookies where Self.same(cookie, entry.session) { matches = true }
                if matches, found == nil { found = Caller(name: entry.token.name, scope: entry.token.scope, version: entry.version) }
            }
            return found
        }
    }

    /// Whether the token a caller proved is still in force, unchanged.
    func isCurrent(_ caller: Caller) -> Bool {
        caller == .local || entries.withLockedValue { $0.list.contains { $0.version == caller.version } }
    }

    /// The live page's cookie for the caller's token.
    func setCookie(for caller: Caller) -> String? {
        entries.withLockedValue { state in
            state.list.first { $0.version == caller.version }.map {
                "\(Self.cookie)=\(String(decoding: $0.session, as: UTF8.self)); Path=/live; HttpOnly; SameSite=Strict"
            }
        }
    }

    /// The secrets a request presents: a bearer token, or a Basic password.
    private static func presented(_ headers: HTTPFields) -> [[UInt8]] {
        headers[values: .authorization].compactMap { authorization in
            if authorization.hasPrefix("Bearer ") { return Array(authorization.utf8.dropFirst(7)) }
            if authorization.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(authorization.dropFirst(6))),
                let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
            {
                return Array(decoded[(colon + 1)...])
            }
            return nil
        }
    }

    private static func sessionCookies(_ headers: HTTPFields) -> [[UInt8]] {
        headers[values: .cookie].flatMap { header in
            header.split(separator: ";").compactMap { pair -> [UInt8]? in
                let p = pair.drop { $0 == " " }
                return p.hasPrefix(cookie + "=") ? Array(p.utf8.dropFirst(cookie.utf8.count + 1)) : nil
            }
        }
    }

    private static func newSession() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return Array((0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined().utf8)
    }

    /// Same time whatever the first differing byte is.
    static func same(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var diff = given.count == expected.count ? 0 : 1
        for i in 0..<expected.count { diff |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return diff == 0
    }
}
