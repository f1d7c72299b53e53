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

/// Where and how the remote-control server listens.
package struct RemoteConfiguration: Sendable {
    package var host: String
    /// 0 picks a free port (see `RemoteServer.port`).
    package var port: Int
    /// Required on any non-loopback address; when set it is checked on every request.
    package var token: String?
    /// Largest accepted request body.
    package var maxBodyBytes: Int
    /// Longest span of one injected script and longest `/wait`, in seconds.
    package var maxScriptSeconds: Double
    package var maxWaitSeconds: Double
    /// A connection that sends nothing for this long is closed (slow or stuck clients).
    package var idleTimeoutSeconds: Int64
    /// The live view (`GET /live`) shows the screen and takes no input from anyone.
    package var liveReadOnly = false

    package init(
        host: String = "127.0.0.1", port: Int, token: String? = nil, maxBodyBytes: Int = 1 << 20,
        maxScriptSeconds: Double = 120, maxWaitSeconds: Double = 300, idleTimeoutSeconds: Int64 = 30
    ) {
        self.host = host; self.port = port; self.token = token; self.maxBodyBytes = maxBodyBytes
        self.maxScriptSeconds = maxScriptSeconds; self.maxWaitSeconds = maxWaitSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// Parses `HOST:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `localhost:0`).
    package static func parse(address: String, token: String?) throws(RemoteError) -> RemoteConfiguration {
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
        let c = RemoteConfiguration(host: String(host), port: port, token: token.flatMap { $0.isEmpty ? nil : $0 })
        if let t = c.token, !isAcceptableToken(t) { throw .badToken }
        guard c.token != nil || c.isLoopback else { throw .tokenRequired(host: c.host) }
        return c
    }

    /// True for 127.0.0.0/8, ::1 and localhost.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
