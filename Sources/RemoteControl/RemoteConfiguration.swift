import AppContract
import Geometry
import Raster

/// What `GET /audit` runs, given by the runtime (the server knows no views): the rules it knows,
/// and a check of the app's screen as presented against some of them (nil: all) that returns the
/// findings as JSON, run on the loop's thread.
package struct ScreenAuditor: Sendable {
    package var rules: [String]
    package var check: @Sendable (App, PixelBuffer, [String]?) -> String

    package init(rules: [String], check: @escaping @Sendable (App, PixelBuffer, [String]?) -> String) {
        self.rules = rules
        self.check = check
    }
}

/// How time passes for an app under remote control.
package enum RemoteClock: String, Sendable, CaseIterable {
    /// The machine's clock: what a person at the screen sees.
    case wall
    /// Time stands still until a client moves it (`POST /wait?until=rest`, `POST /clock`):
    /// carets, timers and animations are where the test put them, however busy the machine.
    case virtual
}

/// Where and how the remote-control server listens.
package struct RemoteConfiguration: Sendable {
    package var host: String
    /// 0 picks a free port (see `RemoteServer.port`).
    package var port: Int
    /// One token that may do everything (`--remote-token`), named "token" in the log.
    package var token: String?
    /// A file of named, scoped tokens (`--remote-tokens`, see `TokenFile`), read again on SIGHUP
    /// or when it changes.
    package var tokensFile: String?
    /// How the app's clock runs while it is remote-controlled (headless apps only).
    package var clock: RemoteClock = .wall
    /// Largest accepted request body.
    package var maxBodyBytes: Int
    /// Longest span of one injected script and longest `/wait`, in seconds.
    package var maxScriptSeconds: Double
    package var maxWaitSeconds: Double
    /// A connection that sends nothing for this long is closed (slow or stuck clients).
    package var idleTimeoutSeconds: Int64
    /// The live view (`GET /live`) shows the screen and takes no input from anyone.
    package var liveReadOnly = false
    /// HTTPS and WSS with this certificate and key; nil: plain HTTP, for loopback only.
    package var tls: RemoteTLSSource?
    /// With TLS: a PEM file of the CAs whose certificates clients must present (mutual TLS).
    package var clientCA: String?

    package init(
        host: String = "127.0.0.1", port: Int, token: String? = nil, maxBodyBytes: Int = 1 << 20,
        maxScriptSeconds: Double = 120, maxWaitSeconds: Double = 300, idleTimeoutSeconds: Int64 = 30
    ) {
        self.host = host; self.port = port; self.token = token; self.maxBodyBytes = maxBodyBytes
        self.maxScriptSeconds = maxScriptSeconds; self.maxWaitSeconds = maxWaitSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// The tokens in force at start: the single token, then the file's. A token is required on
    /// any non-loopback address; when there is one, every request must carry one.
    package func tokens() throws(RemoteError) -> [RemoteToken] {
        var tokens = token.map { [RemoteToken(name: "token", scope: .admin, secret: $0)] } ?? []
        if let tokensFile { tokens += try TokenFile.load(path: tokensFile) }
        return tokens
    }

    var hasTokens: Bool { token != nil || tokensFile != nil }

    /// Who may be asked for: tokens, or client certificates (each certificate is its caller).
    var hasCredentials: Bool { hasTokens || (tls != nil && clientCA != nil) }

    /// What the configuration lacks to serve beyond loopback, or nil.
    func missingProtection() -> RemoteError? {
        if let clientCA, tls == nil {
            return .tls(path: clientCA, problem: "a client CA needs TLS: give the server's certificate and key too")
        }
        if isLoopback { return nil }
        if tls == nil { return .tlsRequired(host: host) }
        return hasCredentials ? nil : .tokenRequired(host: host)
    }

    /// The URL's scheme.
    package var scheme: String { tls == nil ? "http" : "https" }

    /// Parses `HOST:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `localhost:0`). Beyond loopback the
    /// API is served over TLS only: without `tls`, with a key and self-signed certificate kept in
    /// `RemoteTLSSource.stateDirectory()`.
    package static func parse(
        address: String, token: String?, tokensFile: String? = nil, tls: RemoteTLSSource? = nil, clientCA: String? = nil
    ) throws(RemoteError) -> RemoteConfiguration {
        let host: Substring, portText: Substring
        if address.hasPrefix("[") {
            guard let close = address.firstIndex(of: "]"), address[address.index(after: close)...].hasPrefix(":") else {
                throw .badAddress(address)
            }
            host = address[address.index(after: address.startIndex)..<close]
            portText = address[address.index(close, offsetBy: 2)...]
        } else {
            guard let colon = address.lastIndex(of: ":"), !address[..<colon].contains(":") else { throw .badAddress(address) }
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { throw .badAddress(address) }
        var c = RemoteConfiguration(host: String(host), port: port, token: token.flatMap { $0.isEmpty ? nil : $0 })
        c.tokensFile = tokensFile
        c.tls = tls ?? (c.isLoopback ? nil : .generated(directory: RemoteTLSSource.stateDirectory()))
        c.clientCA = clientCA
        if let t = c.token, !isAcceptableToken(t) { throw .badToken }
        if let missing = c.missingProtection() { throw missing }
        _ = try c.tokens()
        return c
    }

    /// True for 127.0.0.0/8, ::1 and localhost.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
