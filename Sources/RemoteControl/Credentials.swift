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

    /// A client whose certificate the server's client CA signed: named by its subject, it may do
    /// everything (a token it also sends decides instead).
    /// The subject is the client's own text and names it in the audit log: escaped (a newline
    /// or an escape sequence cannot start a line of its own or move a terminal's cursor, a quote
    /// cannot close the name) and cut short (a 30 KB subject does not fill the journal).
    static func certified(_ subject: String) -> Caller {
        Caller(
            name: excerpt(subject.replacing("\\", with: "\\\\").replacing("'", with: "\\'"), limit: maxSubjectScalars), scope: .admin,
            version: 0)
    }

    /// A certificate subject's length in a log line, as a distinguished name is rarely longer.
    static let maxSubjectScalars = 200
}

/// The tokens a server accepts, replaceable while it runs. A request proves who it is by
/// `Authorization: Bearer TOKEN`, HTTP Basic with the token as the password (what a browser asks a
/// person for on `/live`), or, for the live view only, a session cookie its page set at a login
/// with the token (a browser sends it with the page's socket, so the token is never put in a URL,
/// where logs would keep it). Each login gets a session of its own, bound to the client's
/// address, that ends after `sessionLifetime`, at logout, or when its token is replaced.
final class Keyring: Sendable {
    static let cookie = "glide_live"
    /// How long a live session lasts without a new login: a working day.
    static let sessionLifetime: Duration = .seconds(12 * 3600)
    /// Sessions kept at most. A login beyond them ends the oldest session of the token that
    /// holds the most, so that logins with one token never end another token's sessions.
    static let maxSessions = 64
    /// Sessions one token holds at most (a wall of dashboards shares a view token); a login
    /// beyond them ends that token's own oldest.
    static let maxSessionsPerToken = 16

    private struct Entry {
        var token: RemoteToken
        var secret: [UInt8]
        var version: Int
        var caller: Caller { Caller(name: token.name, scope: token.scope, version: version) }
    }
    private struct Session {
        /// 256 random bits, as 64 hex digits.
        var id: [UInt8]
        var version: Int
        var address: String
        var expires: ContinuousClock.Instant
    }
    private struct State {
        var list: [Entry] = []
        var sessions: [Session] = []
        var nextVersion = 1
    }
    private let state: NIOLockedValueBox<State>

    init(_ tokens: [RemoteToken]) {
        state = NIOLockedValueBox(State())
        replace(with: tokens)
    }

    /// Puts `tokens` in force. A token whose secret and scope are unchanged keeps its version (its
    /// sessions go on); any other gets a new one, and its old sessions end.
    /// Returns the names of the tokens added, changed or removed.
    @discardableResult
    func replace(with tokens: [RemoteToken]) -> [String] {
        state.withLockedValue { state in
            var changed: [String] = []
            var list: [Entry] = []
            for token in tokens {
                if let old = state.list.first(where: { $0.token == token }) {
                    list.append(old)
                    continue
                }
                changed.append(token.name)
                list.append(Entry(token: token, secret: Array(token.secret.utf8), version: state.nextVersion))
                state.nextVersion += 1
            }
            changed += state.list.map(\.token.name).filter { name in !tokens.contains { $0.name == name } }
            state.list = list
            state.sessions.removeAll { session in !list.contains { $0.version == session.version } }
            return changed
        }
    }

    /// The caller the headers prove, or nil. Every token and session is compared, each in the
    /// same time whatever its first differing byte, so the time taken says nothing of which came
    /// close. A session counts only from the address it was opened from, before it expires.
    func identify(
        _ headers: HTTPFields, session allowSession: Bool, address: String, now: ContinuousClock.Instant = .now
    ) -> Caller? {
        let given = Self.presented(headers)
        let cookies = allowSession ? Self.sessionCookies(headers) : []
        return state.withLockedValue { state in
            var found: Caller?
            for entry in state.list {
                var matches = false
                for secret in given where Self.same(secret, entry.secret) { matches = true }
                if matches, found == nil { found = entry.caller }
            }
            var version: Int?
            for session in state.sessions {
                var matches = false
                for cookie in cookies where Self.same(cookie, session.id) { matches = true }
                if matches, session.address == address, session.expires > now { version = session.version }
            }
            if found == nil, let version { found = state.list.first { $0.version == version }?.caller }
            return found
        }
    }

    /// Whether the token a caller proved is still in force, unchanged. A caller of no token (a
    /// loopback server without tokens, a client certificate) always is.
    func isCurrent(_ caller: Caller) -> Bool {
        caller.version == 0 || state.withLockedValue { $0.list.contains { $0.version == caller.version } }
    }

    /// A new live session for a caller who logged in with a token from `address`: the page's
    /// `Set-Cookie` value (`Secure` under TLS), or nil for a caller of no token.
    func openSession(for caller: Caller, address: String, secure: Bool, now: ContinuousClock.Instant = .now) -> String? {
        state.withLockedValue { state in
            guard state.list.contains(where: { $0.version == caller.version }) else { return nil }
            state.sessions.removeAll { $0.expires <= now }
            Self.makeRoom(in: &state.sessions, for: caller.version)
            let id = Self.newSessionID()
            state.sessions.append(Session(id: id, version: caller.version, address: address, expires: now + Self.sessionLifetime))
            return Self.cookieHeader(
                value: String(decoding: id, as: UTF8.self), maxAge: Int(Self.sessionLifetime.components.seconds), secure: secure)
        }
    }

    /// Ends a session, if need be, so that one of token `version` fits: that token's oldest when
    /// it has its share, else, when all are taken, the oldest of the token that holds the most.
    private static func makeRoom(in sessions: inout [Session], for version: Int) {
        if let own = sessions.firstIndex(where: { $0.version == version }),
            sessions.count(where: { $0.version == version }) >= maxSessionsPerToken
        {
            sessions.remove(at: own)
            return
        }
        guard sessions.count >= maxSessions else { return }
        var held: [Int: Int] = [:]
        for session in sessions { held[session.version, default: 0] += 1 }
        guard let most = held.max(by: { $0.value < $1.value })?.key, let oldest = sessions.firstIndex(where: { $0.version == most })
        else { return }
        sessions.remove(at: oldest)
    }

    /// Ends the sessions the headers' cookies name (logout); returns how many ended.
    @discardableResult
    func closeSessions(_ headers: HTTPFields) -> Int {
        let cookies = Self.sessionCookies(headers)
        return state.withLockedValue { state in
            let before = state.sessions.count
            state.sessions.removeAll { session in cookies.contains { Self.same($0, session.id) } }
            return before - state.sessions.count
        }
    }

    /// The cookie header that sets (or, with `maxAge` 0, clears) the live session.
    static func cookieHeader(value: String, maxAge: Int, secure: Bool) -> String {
        "\(cookie)=\(value); Path=/live; Max-Age=\(maxAge); HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")"
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

    private static func newSessionID() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return Array(
            (0..<4).map { _ in
                let hex = String(g.next() as UInt64, radix: 16)
                return String(repeating: "0", count: 16 - hex.count) + hex
            }.joined().utf8)
    }

    /// Same time whatever the first differing byte is.
    static func same(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var diff = given.count == expected.count ? 0 : 1
        for i in 0..<expected.count { diff |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return diff == 0
    }
}
