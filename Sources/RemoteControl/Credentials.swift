import FoundationEssentials
import HTTPTypes
import Hummingbird
import Geometry
import Logging

/// What proves a request comes from someone who knows the token: `Authorization: Bearer TOKEN`,
/// HTTP Basic with the token as the password (what a browser asks a person for on `/live`),
/// or, for the live view only, the session cookie its page set (a browser sends it with the
/// page's socket, so the token is never put in a URL, where logs would keep it).
struct Credentials: Sendable {
    let token: [UInt8]
    /// Random for each server: the cookie proves the page was opened with the token.
    let session: [UInt8]
    static let cookie = "glide_live"

    init(token: String) {
        self.token = Array(token.utf8)
        var g = SystemRandomNumberGenerator()
        session = Array((0..<4).map { _ in String(g.next() as UInt64, radix: 16) }.joined().utf8)
    }

    var setCookie: String { "\(Self.cookie)=\(String(decoding: session, as: UTF8.self)); Path=/live; HttpOnly; SameSite=Strict" }

    func accept(_ headers: HTTPFields, session allowSession: Bool) -> Bool {
        let authorization = headers[.authorization] ?? ""
        if authorization.hasPrefix("Bearer "), Self.same(Array(authorization.utf8.dropFirst(7)), token) { return true }
        if authorization.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(authorization.dropFirst(6))),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":")), Self.same(Array(decoded[(colon + 1)...]), token)
        {
            return true
        }
        if allowSession {
            for header in headers[values: .cookie] {
                for pair in header.split(separator: ";") {
                    let p = pair.drop { $0 == " " }
                    if p.hasPrefix(Self.cookie + "="), Self.same(Array(p.utf8.dropFirst(Self.cookie.utf8.count + 1)), session) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// Same time whatever the first differing byte is.
    static func same(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var diff = given.count == expected.count ? 0 : 1
        for i in 0..<expected.count { diff |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        return diff == 0
    }
}

/// Rejects requests without the token (401, logged); see `Credentials`.
struct TokenMiddleware: RouterMiddleware {
    typealias Context = RemoteRequestContext
    let credentials: Credentials
    let refusals: RefusalLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isLive = request.uri.path == "/live"
        guard credentials.accept(request.headers, session: isLive) else {
            let header = request.headers[.authorization] ?? ""
            refusals.warning(
                "remote: 401 \(request.method) \(excerpt(request.uri.path, limit: RefusalLog.pathLimit)) from \(context.peer): \(header.isEmpty ? "no token" : "wrong token")"
            )
            return RemoteServer.json(
                .unauthorized, error: "missing or wrong token (send Authorization: Bearer TOKEN)",
                extraHeaders: [.wwwAuthenticate: isLive ? "Basic realm=\"glide\", charset=\"UTF-8\"" : "Bearer"])
        }
        return try await next(request, context)
    }
}
