import FleetMetrics
import HTTPTypes
import Hummingbird

/// Counts every request the API answers, refusals included, by the route it took and its
/// status: `glide_remote_requests_total{endpoint,status}`. A path that is no route's own
/// spelling counts as "other", so a scanner's paths cannot grow the series without bound.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = RemoteRequestContext
    let metrics: GlideMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let route = context.endpointPath
        let endpoint =
            route.flatMap { route in
                RemoteRoutes.all.contains { $0.path == route } && RemoteRoutes.isCanonical(request.uri.path, route: route) ? route : nil
            } ?? "other"
        do {
            let response = try await next(request, context)
            metrics.requestServed(endpoint: endpoint, status: response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            metrics.requestServed(endpoint: endpoint, status: error.status.code)
            throw error
        } catch {
            metrics.requestServed(endpoint: endpoint, status: 500)
            throw error
        }
    }
}
