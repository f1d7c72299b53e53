import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// Why the remote-control server could not be configured or started.
package enum RemoteError: Error, CustomStringConvertible, Sendable {
    case system(operation: String, errno: Int32)
    case badAddress(String)
    case tokenRequired(host: String)
    case badToken
    case bindFailed(String)
    /// A token file that cannot be read, is open to others, or has a bad line (1-based).
    case tokenFile(path: String, line: Int?, problem: String)
    /// A certificate, key or client CA that cannot be read, is open to others, or does not fit.
    case tls(path: String, problem: String)
    /// A non-loopback address without TLS.
    case tlsRequired(host: String)

    /// Errors that name their own file (a token file, a certificate), not the address.
    package var namesItsFile: Bool {
        switch self {
        case .tokenFile, .tls: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case let .system(op, e): return "\(op) failed: \(String(cString: strerror(e)))"
        case let .badAddress(s): return "bad remote address '\(excerpt(s))': expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
        case let .tokenRequired(host):
            return "listening on \(host) (not loopback) requires a token: pass --remote-tokens, --remote-token or --remote-token-file"
        case .badToken: return "the remote token is too weak: \(tokenRule) (it is not repeated here)"
        case let .tokenFile(path, line, problem): return "\(path)\(line.map { ":\($0)" } ?? ""): \(problem)"
        case let .tls(path, problem): return "\(path): \(problem)"
        case let .tlsRequired(host):
            return
                "listening on \(host) (not loopback) requires TLS: give --remote-tls-certificate and --remote-tls-key, or neither to use a kept self-signed one"
        case let .bindFailed(s): return "remote control server could not start: \(s)"
        }
    }
}
