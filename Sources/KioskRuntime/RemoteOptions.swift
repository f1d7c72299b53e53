import ArgumentParser
import Geometry
import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// `--remote HOST:PORT` and its token (the opt-in remote-control server), for `run` and `board`.
package struct RemoteOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve the remote-control HTTP API on HOST:PORT (port 0 picks one). Off by default; loopback unless a token is given.",
            valueName: "host:port"))
    package var remote: String?
    @Option(help: "Bearer token every remote request must carry; required on a non-loopback address.")
    package var remoteToken: String?
    @Option(help: "Read the remote token from this file (first line), instead of the command line.")
    package var remoteTokenFile: String?
    @Option(
        help: ArgumentHelp(
            "Named tokens with scopes, one a line: NAME SCOPE TOKEN (scopes view, control, admin; # comments). Read again on SIGHUP or when the file changes; refused if group or others may read it.",
            valueName: "file"))
    package var remoteTokens: String?
    @Option(
        help: ArgumentHelp(
            "wall: the app runs in real time; virtual (headless only): time moves only when a client asks (POST /wait, POST /clock).",
            valueName: "wall|virtual"))
    package var remoteClock: RemoteClock?
    @Flag(help: "The live view (GET /live) only shows the screen: it takes no input from any viewer.")
    package var remoteViewOnly = false

    package init() {}

    /// The server configuration, or nil when neither `--remote` nor `configAddress` is given.
    /// The board config's `remote_address` and `remote_token` fill in what the flags leave out;
    /// `configPlace` (`FILE:LINE` of `remote_address`) is named in errors about it.
    package func configuration(
        configAddress: String? = nil, configToken: String? = nil, configTokens: String? = nil, configClock: String? = nil,
        configPlace: String? = nil
    ) throws -> RemoteConfiguration? {
        guard let remote = remote ?? configAddress else {
            if remoteToken != nil || remoteTokenFile != nil || remoteTokens != nil || remoteClock != nil {
                throw ValidationError("--remote-token, --remote-tokens and --remote-clock need --remote HOST:PORT")
            }
            return nil
        }
        let source = self.remote == nil ? (configPlace.map { "\($0): remote_address" } ?? "remote_address") : "--remote"
        var token = remoteToken ?? (remoteTokenFile == nil ? configToken : nil)
        if let path = remoteTokenFile {
            guard token == nil else { throw ValidationError("give --remote-token or --remote-token-file, not both") }
            let text = try readText(path)
            token = textLines(text).first.map(String.init) ?? ""
            if token?.isEmpty ?? true { throw ValidationError("\(path): the token file is empty") }
        }
        do {
            var c = try RemoteConfiguration.parse(address: remote, token: token, tokensFile: remoteTokens ?? configTokens)
            c.liveReadOnly = remoteViewOnly
            c.clock = remoteClock ?? configClock.flatMap(RemoteClock.init(rawValue:)) ?? .wall
            return c
        } catch {
            // A token file's error names its own file and line.
            throw ValidationError(error.isAboutTokenFile ? "\(error)" : "\(source): \(error)")
        }
    }
}

extension RemoteClock: ExpressibleByArgument {}
