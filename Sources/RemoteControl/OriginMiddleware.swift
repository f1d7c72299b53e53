import Geometry
import HTTPTypes
import Hummingbird
import Logging

/// Keeps web pages away from the API (a kiosk's browser, a developer's laptop on the same
/// network): a request that a page on another site made is refused with 403 (its `Origin` is
/// not this server), so is one whose `Host` is not a loopback name while the server listens
/// on loopback (DNS rebinding: a page of evil.example whose name now points at 127.0.0.1), and
/// a body must say it is JSON (415 otherwise): a browser sends `text/plain`, forms or an
/// untyped body to another site without asking first, but never `application/json`.
struct OriginMiddleware: RouterMiddleware {
    typealias Context = RemoteRequestContext
    let loopbackOnly: Bool
    /// `http` or `https`: this server's own pages' origin.
    let scheme: String
    let refusals: RefusalLog

    static let jsonTypes: Set<String> = ["application/json", "application/x-ndjson", "application/jsonl", "application/json-lines"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = Self.refusal(request.head, loopbackOnly: loopbackOnly, scheme: scheme) {
            return refuse(request, context, .forbidden, refusal)
        }
        let hasBody = request.headers[.contentLength].map { $0 != "0" } ?? (request.headers[.transferEncoding] != nil)
        if hasBody {
            let type =
                (request.headers[.contentType] ?? "").split(separator: ";").first.map {
                    String($0).lowercased().filter { $0 != " " && $0 != "\t" }
                } ?? ""
            guard Self.jsonTypes.contains(type) else {
                return refuse(
                    request, context, .unsupportedMediaType,
                    "a body must be sent as Content-Type: application/json (or application/x-ndjson), not '\(excerpt(type, limit: 40))'")
            }
        }
        return try await next(request, context)
    }

    private func refuse(_ request: Request, _ context: Context, _ status: HTTPResponse.Status, _ message: String) -> Response {
        refusals.warning(
            "remote: \(status.code) \(request.method) \(excerpt(request.uri.path, limit: RefusalLog.pathLimit)) from \(context.peer): \(message)"
        )
        return RemoteServer.json(status, error: message)
    }

    /// Why `request` comes from a page of another site, or nil: a foreign `Host` on a loopback
    /// server, a foreign `Origin`. WebSocket upgrades, which do not pass the router, ask too.
    static func refusal(_ request: HTTPRequest, loopbackOnly: Bool, scheme: String) -> String? {
        let host = request.authority ?? ""
        if loopbackOnly, !isLoopbackName(host) {
            return "Host \(excerpt(host, limit: 40)) is not this loopback server (a DNS rebinding page?)"
        }
        if let origin = request.headerFields[.origin], origin != scheme + "://" + host {
            return "requests from other sites (Origin \(excerpt(origin, limit: 60))) are refused"
        }
        return nil
    }

    /// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
    static func isLoopbackName(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            return name[name.index(after: name.startIndex)..<close] == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        return RemoteConfiguration(host: String(name), port: 0).isLoopback
    }
}
