import AppContract
import FoundationEssentials
import Geometry
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging

/// Who may do what: finds the caller a request's token (or the live page's cookie) proves,
/// answers 401 without one, 403 when the token's scope does not allow the request, and 429 to
/// an address that has sent wrong tokens too often (`AttemptThrottle`; a request without any
/// token is refused but is not a guess); writes every control and admin action to the audit log.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = RemoteRequestContext
    /// nil: a server without tokens (loopback, or client certificates only).
    let keyring: Keyring?
    let throttle: AttemptThrottle
    let refusals: RefusalLog
    let audit: AuditLog
    let clock: RemoteClock
    /// Mutual TLS: every client presents a certificate the client CA signed; one that sends no
    /// token acts as its certificate's subject.
    let certificates: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let route = context.endpointPath
        let path = excerpt(request.uri.path, limit: RefusalLog.pathLimit)
        guard RemoteRoutes.isCanonical(request.uri.path, route: route) else {
            refusals.warning("remote: 404 \(request.method) \(path) from \(context.peer): not the route's own spelling")
            return RemoteServer.json(.notFound, error: "no such path: \(path) (the API's paths have no empty segment nor trailing slash)")
        }
        let needed = RemoteRoutes.scope(of: request.method, route: route, clock: clock)
        var context = context
        let isLive = route == "/live" || route == "/live/logout"
        // Asked only under mutual TLS: it hops to the connection's event loop.
        let certified = certificates ? await RemoteTLS.peerSubject(of: context.channel).map(Caller.certified) : nil
        let caller: Caller
        switch Self.authenticate(
            request.headers, session: isLive, address: context.address, keyring: keyring, throttle: throttle, certified: certified)
        {
        case let .proved(proved):
            caller = proved
        case let .slowed(wait):
            refusals.warning("remote: 429 \(request.method) \(path) from \(context.peer): too many wrong tokens")
            var response = RemoteServer.json(.tooManyRequests, error: "too many wrong tokens from this address; retry later")
            response.headers[.retryAfter] = "\(Int(wait.rounded(.up)))"
            return response
        case .refused:
            let header = request.headers[.authorization] ?? ""
            refusals.warning("remote: 401 \(request.method) \(path) from \(context.peer): \(header.isEmpty ? "no token" : "wrong token")")
            return RemoteServer.json(
                .unauthorized, error: "missing or wrong token (send Authorization: Bearer TOKEN)",
                extraHeaders: [.wwwAuthenticate: isLive ? "Basic realm=\"glide\", charset=\"UTF-8\"" : "Bearer"])
        }
        guard caller.scope >= needed else {
            refusals.warning("remote: 403 \(request.method) \(path) from \(context.peer): '\(caller.name)' has scope \(caller.scope.name)")
            return RemoteServer.json(
                .forbidden,
                error: "\(request.method) \(path) needs a token of scope \(needed.name); '\(caller.name)' has \(caller.scope.name)")
        }
        context.caller = caller
        let response = try await next(request, context)
        if needed >= .control {
            audit.record(
                "\(request.method) \(excerpt(request.uri.path + Self.knownQuery(request.uri), limit: RefusalLog.pathLimit))"
                    + " \(response.status.code)",
                by: context.caller, from: context.peer)
        }
        return response
    }

    /// What a request's headers prove.
    enum Authentication {
        case proved(Caller)
        /// The address sent too many wrong tokens: nothing was checked; retry after this many seconds.
        case slowed(Double)
        /// No token, or a wrong one (counted against the address: a wrong token is a guess;
        /// none at all, a probe or a browser's first try, is not).
        case refused
    }

    /// Whether the headers carry a token (or, with `session`, a live session's cookie).
    static func presentsCredentials(_ headers: HTTPFields, session: Bool) -> Bool {
        !(headers[.authorization] ?? "").isEmpty || (session && headers[.cookie] != nil)
    }

    /// Checks the token (or, with `session`, the live page's cookie) a request from `address`
    /// presents, unless that address must wait: the one check of the API and the live socket.
    /// `certified`: the caller a client certificate proved, who needs no token (one it sends
    /// decides instead). Without a keyring (loopback, no tokens) the caller is `Caller.local`.
    static func authenticate(
        _ headers: HTTPFields, session: Bool, address: String, keyring: Keyring?, throttle: AttemptThrottle, certified: Caller?
    ) -> Authentication {
        if let certified, keyring == nil || !presentsCredentials(headers, session: session) { return .proved(certified) }
        guard let keyring else { return .proved(.local) }
        let wait = throttle.wait(for: address)
        if wait > 0 { return .slowed(wait) }
        if let caller = keyring.identify(headers, session: session, address: address) { return .proved(caller) }
        if presentsCredentials(headers, session: session) { throttle.failed(from: address) }
        return .refused
    }

    /// The query as the log shows it: whole when every key is one the API reads (`?advance_ms=500`),
    /// else cut, so that a secret a client put in a URL never reaches the log.
    static func knownQuery(_ uri: URI) -> String {
        guard let query = uri.query, !query.isEmpty else { return "" }
        let known: Set<Substring> = ["until", "timeout_ms", "advance_ms"]
        let keys = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
        return keys.allSatisfy(known.contains) ? "?" + query : "?…"
    }
}

/// Every control and admin action, one line each in the journal: who (the token's name), what,
/// when and from where. Never a secret: tokens and cookies are not in requests' paths.
struct AuditLog: Sendable {
    let logger: Logger

    func record(_ action: String, by caller: Caller?, from peer: String) {
        let who = caller ?? .local
        // The journal keeps the caller and the action as fields (GLIDE_CLIENT, GLIDE_EVENT).
        logger.notice(
            "audit: \(action) by '\(who.name)' (\(who.scope.name)) from \(peer) at \(Date.now.formatted(.iso8601))",
            metadata: ["client": "\(who.name)", "event": "remote-\(who.scope.name)"])
    }
}
