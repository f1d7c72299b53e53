import ArgumentParser
import Dispatch
import Logging
import RemoteControl
import Runtime
import UI
#if canImport(Glibc)
import Glibc
#endif

/// `--remote HOST:PORT` and its token (REM-1), for `glide run` (and `glide board`).
struct RemoteOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Serve the remote-control HTTP API on HOST:PORT (port 0 picks one). Off by default; loopback unless a token is given.",
                               valueName: "host:port"))
    var remote: String?
    @Option(help: "Bearer token every remote request must carry; required on a non-loopback address.")
    var remoteToken: String?
    @Option(help: "Read the remote token from this file (first line), instead of the command line.")
    var remoteTokenFile: String?

    /// The server configuration, or nil when neither `--remote` nor `configAddress` is given.
    /// The board config's `remote_address` and `remote_token` fill in what the flags leave out.
    func configuration(configAddress: String? = nil, configToken: String? = nil) throws -> RemoteConfiguration? {
        guard let remote = remote ?? configAddress else {
            if remoteToken != nil || remoteTokenFile != nil { throw ValidationError("--remote-token needs --remote HOST:PORT") }
            return nil
        }
        let source = self.remote == nil ? "remote_address" : "--remote"
        var token = remoteToken ?? (remoteTokenFile == nil ? configToken : nil)
        if let path = remoteTokenFile {
            guard token == nil else { throw ValidationError("give --remote-token or --remote-token-file, not both") }
            let text = try readText(path)
            token = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if token?.isEmpty ?? true { throw ValidationError("\(path): the token file is empty") }
        }
        do { return try RemoteConfiguration.parse(address: remote, token: token) } catch {
            throw ValidationError("\(source): \(error)")
        }
    }
}

/// Starts the remote-control server and waits until it listens (port 0: see `server.port`).
/// For `glide board`: `let remote = try remoteOptions.configuration().map(startRemoteServer)`, then
/// the board loop calls `remote.pollRequests(...)` each iteration (see RemoteControl/FrameLoopSide).
func startRemoteServer(_ configuration: RemoteConfiguration) throws -> RemoteServer {
    let server = try RemoteServer(configuration: configuration, logger: Logger(label: "glide.remote"))
    do { _ = try server.startBlocking() } catch {
        printError("glide: \(error)")
        throw ExitCode(1)
    }
    return server
}

/// `glide run --backend headless --remote ...`: runs the app in wall-clock time, serving the
/// remote API (and playing `script` from the start) until SIGINT or SIGTERM.
func runRemoteHeadless(window: Window, script: InputScript, hz: Double, out: String, remote: RemoteConfiguration) throws {
    let stopper = try LoopStopper()
    stopper.installSignalHandlers()
    let server = try startRemoteServer(remote)
    let port = server.port ?? remote.port
    if script.entries.contains(where: { if case .screenshot = $0.action { return true }; if case .state = $0.action { return true }; return false }) {
        try makeDirectory(out)
    }
    let host = remote.host.contains(":") ? "[\(remote.host)]" : remote.host
    var line = "glide: remote control on http://\(host):\(port)\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    let loop = RealTimeHeadlessLoop(app: window, width: window.pixelWidth, height: window.pixelHeight, hz: hz,
                                    remote: server, script: script, outDirectory: out)
    loop.run(stopper: stopper)
    let done = DispatchSemaphore(value: 0)
    Task { await server.stop(); done.signal() }
    _ = done.wait(timeout: .now() + 5)
    var bye = "glide: stopped after \(loop.frameNumber) frames\n"
    bye.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
