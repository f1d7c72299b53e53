import ArgumentParser
import BoardConfig
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
    @Option(
        help: ArgumentHelp(
            "Serve HTTPS and WSS with this PEM certificate (chain). Without it and --remote-tls-key, a non-loopback address gets a self-signed one, made once and kept.",
            valueName: "pem"))
    package var remoteTlsCertificate: String?
    @Option(
        help: ArgumentHelp("The PEM private key of --remote-tls-certificate; refused if group or others may read it.", valueName: "pem"))
    package var remoteTlsKey: String?
    @Option(
        help: ArgumentHelp(
            "Mutual TLS: clients must present a certificate this PEM CA signed; its subject names them in the log.", valueName: "pem"))
    package var remoteClientCa: String?

    package init() {}

    /// The server configuration, or nil when neither `--remote` nor the board config's
    /// `remote_address` is given. The config's `remote_*` keys fill in what the flags leave out;
    /// errors about the address name the config's `FILE:LINE`.
    package func configuration(config: BoardConfig? = nil) throws -> RemoteConfiguration? {
        guard let remote = remote ?? config?.remoteAddress else {
            if remoteToken != nil || remoteTokenFile != nil || remoteTokens != nil || remoteClock != nil || remoteTlsCertificate != nil
                || remoteTlsKey != nil || remoteClientCa != nil
            {
                throw ValidationError("the --remote-* options need --remote HOST:PORT")
            }
            return nil
        }
        let source =
            self.remote == nil ? (config?.place(of: "remote_address").map { "\($0): remote_address" } ?? "remote_address") : "--remote"
        var token = remoteToken ?? (remoteTokenFile == nil ? config?.remoteToken : nil)
        if let path = remoteTokenFile {
            guard token == nil else { throw ValidationError("give --remote-token or --remote-token-file, not both") }
            let text = try readText(path)
            token = textLines(text).first.map(String.init) ?? ""
            if token?.isEmpty ?? true { throw ValidationError("\(path): the token file is empty") }
        }
        let tls = try tlsSource(config: config)
        do {
            var c = try RemoteConfiguration.parse(
                address: remote, token: token, tokensFile: remoteTokens ?? config?.remoteTokens, tls: tls,
                clientCA: remoteClientCa ?? config?.remoteClientCA)
            c.liveReadOnly = remoteViewOnly
            c.clock = remoteClock ?? config?.remoteClock.flatMap(RemoteClock.init(rawValue:)) ?? .wall
            return c
        } catch {
            // A token file's or a certificate's error names its own file and line.
            throw ValidationError(error.namesItsFile ? "\(error)" : "\(source): \(error)")
        }
    }

    /// The certificate and key given, both or neither.
    private func tlsSource(config: BoardConfig?) throws -> RemoteTLSSource? {
        let certificate = remoteTlsCertificate ?? config?.remoteTLSCertificate, key = remoteTlsKey ?? config?.remoteTLSKey
        switch (certificate, key) {
        case let (certificate?, key?): return .files(certificate: certificate, key: key)
        case (nil, nil): return nil
        default:
            throw ValidationError(
                "give both --remote-tls-certificate and --remote-tls-key (remote_tls_certificate, remote_tls_key), or neither")
        }
    }
}

extension RemoteClock: ExpressibleByArgument {}
