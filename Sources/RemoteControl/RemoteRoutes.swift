import AppContract
import HTTPTypes

/// The API's routes in one table: the router registers them from it (and answers another method
/// with 405), the access check takes from it the scope a request needs, and whatever needs
/// `control` or more is audited. The scope is looked up by the route the router chose, never
/// by the path as the client spelled it, and a spelling the router would also take (`/display/`,
/// `//events`) is refused before anything else: one path, one scope.
enum RemoteRoutes {
    struct Route: Sendable {
        let method: HTTPRequest.Method
        let path: String
        /// Reading needs `view`, input `control`, the display's power `admin`.
        let scope: RemoteScope
        /// The scope under a virtual clock, where waiting moves time (`/wait`).
        var scopeUnderVirtualClock: RemoteScope?
    }

    static let all: [Route] = [
        Route(method: .get, path: "/screenshot.png", scope: .view),
        Route(method: .get, path: "/state", scope: .view),
        Route(method: .get, path: "/audit", scope: .view),
        Route(method: .get, path: "/metrics", scope: .view),
        Route(method: .get, path: "/live", scope: .view),
        Route(method: .get, path: "/live/socket", scope: .view),
        Route(method: .post, path: "/live/logout", scope: .view),
        Route(method: .post, path: "/events", scope: .control),
        Route(method: .post, path: "/wait", scope: .view, scopeUnderVirtualClock: .control),
        Route(method: .post, path: "/display", scope: .admin),
        Route(method: .post, path: "/clock", scope: .control),
    ]

    /// The scope a request for `route` (the router's path, nil when none matched) needs. A
    /// known path with another method gets its own route's scope: its 405 then says which
    /// method to use only to a caller who could use it.
    static func scope(of method: HTTPRequest.Method, route: String?, clock: RemoteClock) -> RemoteScope {
        let routes = all.filter { $0.path == route }
        guard let chosen = routes.first(where: { $0.method == method }) ?? routes.first else { return .view }
        return clock == .virtual ? chosen.scopeUnderVirtualClock ?? chosen.scope : chosen.scope
    }

    /// Whether `path`, as the client sent it, is the route's own spelling. Hummingbird's router
    /// also takes empty segments and a trailing slash; those are refused, so that no second
    /// spelling of a path exists for a check, a log or a proxy's rule to miss.
    static func isCanonical(_ path: String, route: String?) -> Bool {
        guard let route else { return true }  // nothing matched: 404 either way
        return path == route
    }
}
