import AppContract
import Dispatch
import FleetMetrics
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import NIOConcurrencyHelpers

/// The remote-control HTTP server, built on Hummingbird. Handlers never touch the app:
/// they post requests into an inbox and await the frame loop's answers, which the loop gives in
/// `pollRequests(app:screen:rotation:time:frameNumber:control:deliver:)` on its own thread.
///
///     GET  /screenshot.png                          the presented screen as PNG
///     GET  /screenshot.png?source=scanout           the same, read back from the display
///     GET  /screenshot.png?mask=ID,ID               with those views painted over (magenta)
///     GET  /state                                   the app's state JSON
///     GET  /audit?rules=contrast,label              the accessibility audit of the screen shown
///     GET  /metrics                                 the fleet's series, Prometheus' text format
///     POST /events                                  JSON Lines script, t relative to arrival
///     POST /wait?until=rest&timeout_ms=N            200 at rest, 408 on timeout (with state)
///     POST /display {"on": BOOL}                    wake or blank the screen
///     GET  /live                                    a page that shows the screen live and drives it
///     GET  /live/socket (WebSocket)                 the page's socket (see `LiveSocket.swift`)
package final class RemoteServer: Sendable {
    package let configuration: RemoteConfiguration
    let logger: Logger
    let inbox: RemoteInbox
    /// The screen as live viewers see it.
    let live = LiveScreen()
    /// The tokens in force; nil on a loopback server without tokens.
    let keyring: Keyring?
    /// Token guessing, slowed per address.
    let throttle: AttemptThrottle
    /// Control and admin actions, logged.
    let audit: AuditLog
    /// Screenshots being taken, encoded or written, at most 4.
    let screenshots = AdmissionCounter(limit: 4)
    /// Audits at once: one. Each runs on the frame loop (it reads the views) for as long as the
    /// screen is large, so that a burst of them would hold `/state`, input and frames back.
    let audits = AdmissionCounter(limit: 1)
    /// Where refusals are logged, a few a second.
    let refusals: RefusalLog
    /// Open connections, bounded by the descriptor limit the process has at its start.
    let connections: ConnectionTable
    private let running = NIOLockedValueBox<(task: Task<Void, Never>?, group: ServiceGroup?, port: Int?, watch: Task<Void, Never>?)>(
        (nil, nil, nil, nil))
    /// HTTPS and WSS; nil: plain HTTP on loopback.
    let tls: RemoteTLS?
    /// `/audit`'s checks; nil: it answers 501.
    let auditor: ScreenAuditor?
    /// `/metrics`' series, which also count the API's requests; nil: it answers 501.
    package let metrics: GlideMetrics?

    /// `attemptClock`: the monotonic seconds that wrong tokens' waits are measured in (tests
    /// hold it still, so that a wait cannot run out while a busy machine delays a request).
    package init(
        configuration: RemoteConfiguration, logger: Logger = Logger(label: "glide.remote"), auditor: ScreenAuditor? = nil,
        metrics: GlideMetrics? = nil, attemptClock: @escaping @Sendable () -> Double = monotonicSeconds
    ) throws(RemoteError) {
        throttle = AttemptThrottle(now: attemptClock)
        if let missing = configuration.missingProtection() { throw missing }
        tls = try configuration.tls.map { source throws(RemoteError) in try RemoteTLS.load(source, clientCA: configuration.clientCA) }
        self.configuration = configuration
        self.logger = logger
        self.auditor = auditor
        self.metrics = metrics
        inbox = try RemoteInbox()
        keyring = configuration.hasTokens ? Keyring(try configuration.tokens()) : nil
        audit = AuditLog(logger: logger)
        refusals = RefusalLog(logger: logger)
        // Its own budget: a flood of refused requests must not hide that the bound was reached.
        connections = ConnectionTable(limit: ConnectionTable.defaultLimit, log: RefusalLog(logger: logger))
    }

    /// The bound port once the server is listening.
    package var port: Int? { running.withLockedValue { $0.port } }

    /// Starts listening; returns the bound port (useful with port 0). Throws if binding fails.
    package func start() async throws -> Int {
        let (stream, signal) = AsyncStream<Result<Int, RemoteError>>.makeStream()
        let server = try makeServerBuilder()
        let app = Application(
            router: makeRouter(), server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "glide"),
            onServerRunning: { channel in
                signal.yield(.success(channel.localAddress?.port ?? -1))
            },
            logger: logger)
        // A service group of its own, so that `stop` shuts the server down gracefully (open
        // requests finish, nothing is logged as an error) instead of cancelling it.
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                signal.yield(.failure(.bindFailed("\(error)")))
            }
            signal.finish()
        }
        running.withLockedValue {
            $0.task = task; $0.group = group
        }
        for await result in stream {
            switch result {
            case let .success(port):
                running.withLockedValue { $0.port = port }
                logger.info(
                    "remote: listening on \(url(port: port))\(keyring == nil ? "" : " (token required)")\(tls?.requiresClientCertificate == true ? " (client certificate required)" : "")"
                )
                if let tls {
                    logger.notice(
                        "remote: TLS certificate \(tls.certificatePath)\(tls.made ? " (made now, self-signed)" : ""), SHA-256 fingerprint \(tls.fingerprint)"
                    )
                }
                if configuration.tokensFile != nil { watchTokensFile() }
                return port
            case let .failure(error):
                throw error
            }
        }
        throw RemoteError.bindFailed("the server stopped before it was listening")
    }

    /// HTTP/1 with the live view's WebSocket upgrades, in TLS when the server has it.
    private func makeServerBuilder() throws(RemoteError) -> HTTPServerBuilder {
        let http = RemoteHTTPChannel.builder(
            idleTimeout: .seconds(configuration.idleTimeoutSeconds), connections: connections,
            keyring: keyring, throttle: throttle, refusals: refusals
        ) { request, channel, _ in
            // Only a server with a client CA asks for client certificates: elsewhere this is nil.
            let certified = RemoteTLS.peerSubject(on: channel).map(Caller.certified)
            switch self.admitLive(
                request, peer: Self.describe(channel.remoteAddress), address: Self.address(of: channel), certified: certified)
            {
            case .dontUpgrade: return .dontUpgrade
            case let .upgrade(headers, admission):
                return .upgrade(headers) { inbound, outbound, _ in
                    await self.serveLive(inbound, outbound, admission: admission, channel: channel)
                }
            }
        }
        do { return try tls.map { try .tls(http, tlsConfiguration: $0.configuration) } ?? http } catch {
            throw .bindFailed("TLS: \(error)")
        }
    }

    /// `start()` for synchronous callers (the CLI): blocks until listening or failed.
    package func startBlocking() throws -> Int {
        let done = DispatchSemaphore(value: 0)
        let result = NIOLockedValueBox<Result<Int, any Error>?>(nil)
        Task {
            do { let p = try await self.start(); result.withLockedValue { $0 = .success(p) } } catch {
                result.withLockedValue { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLockedValue { $0! }.get()
    }

    /// What failed attempts and live sessions are counted by: the client's address without its port.
    static func address(of channel: any Channel) -> String {
        channel.remoteAddress?.ipAddress ?? describe(channel.remoteAddress)
    }

    /// `https://HOST:PORT` (or `http://` on loopback without TLS).
    package func url(port: Int) -> String { "\(configuration.scheme)://\(Self.hostInURL(configuration.host)):\(port)" }

    /// `[::1]` for an IPv6 host, else the host.
    static func hostInURL(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// A client's address as the log gives it: `10.0.0.5:51234`, `[::1]:51234`.
    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress else { return address.map { "\($0)" } ?? "?" }
        let host = hostInURL(ip)
        return address.port.map { "\(host):\($0)" } ?? host
    }

    /// Reads the token file again (SIGHUP, or the file changed) and puts its tokens in force;
    /// the live sessions of replaced or removed tokens end. A file that no longer loads (a bad
    /// line, a loose mode) is logged and the tokens in force stay: nobody is locked out by a typo.
    /// `reason` is said in the log ("SIGHUP", "the file changed").
    package func reloadTokens(because reason: String) {
        guard let keyring, let path = configuration.tokensFile else { return }
        do {
            let changed = keyring.replace(with: try configuration.tokens())
            logger.notice(
                "remote: tokens read again from \(path) (\(reason)): \(changed.isEmpty ? "none changed" : "changed " + changed.joined(separator: ", "))"
            )
        } catch {
            logger.error("remote: \(error); the tokens in force stay")
        }
    }

    /// Reloads the token file when its inode, size or time of change differ, checked every second.
    private func watchTokensFile() {
        guard let path = configuration.tokensFile else { return }
        let task = Task.detached { [weak self] in
            var last = TokenFile.signature(path)
            while (try? await Task.sleep(for: .seconds(1))) != nil, let self {
                let now = TokenFile.signature(path)
                if now != last, now != nil { self.reloadTokens(because: last == nil ? "the file is back" : "the file changed") }
                // The tokens in force stay while the file is gone, as they do while it does not
                // load: deleting is no way to revoke (editing the file is), editors and deploy
                // tools replace a file through a moment without it, and a server left with no
                // token would lock out the fleet, the admin who could mend it too.
                if now == nil, last != nil {
                    self.logger.error("remote: the token file \(path) is gone; the tokens in force stay until it is back")
                }
                last = now
            }
        }
        running.withLockedValue { $0.watch = task }
    }

    /// Stops accepting connections and ends the server task (graceful: open requests finish).
    package func stop() async {
        let (task, group, watch) = running.withLockedValue { ($0.task, $0.group, $0.watch) }
        watch?.cancel()
        await group?.triggerGracefulShutdown()
        await task?.value
    }
}

/// The per-request context: Hummingbird's core storage, the peer (for the log), its address
/// without the port (what failed attempts are counted by), the connection (whether its client is
/// still there) and the caller its token proved.
struct RemoteRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String
    let address: String
    let channel: any Channel
    var caller: Caller?
    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = RemoteServer.describe(source.channel.remoteAddress)
        address = RemoteServer.address(of: source.channel)
        channel = source.channel
    }
}
