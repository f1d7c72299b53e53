import FoundationEssentials
import ImageCodecs
import NIOCore
import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// Where the remote API's certificate and key come from.
package enum RemoteTLSSource: Sendable, Equatable {
    /// PEM files the operator gave (`--remote-tls-certificate`, `--remote-tls-key`).
    case files(certificate: String, key: String)
    /// A key and a self-signed certificate kept in this folder, made on the first start (as an
    /// SSH server makes its host keys): the same fingerprint from one start to the next, so a
    /// client can pin it.
    case generated(directory: String)

    /// The folder a board keeps its generated key in: systemd's `StateDirectory` (the unit sets
    /// it), else `$XDG_STATE_HOME/glide`, `~/.local/state/glide`, or `/var/lib/glide`.
    package static func stateDirectory(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String {
        if let dirs = environment("STATE_DIRECTORY"), let first = dirs.split(separator: ":").first { return String(first) }
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/glide" }
        if let home = environment("HOME"), home.hasPrefix("/"), home != "/" { return home + "/.local/state/glide" }
        return "/var/lib/glide"
    }
}

/// The server's TLS, loaded and checked at start: a certificate and key that belong together,
/// and, with a client CA, the certificates that may connect (mutual TLS).
struct RemoteTLS: Sendable {
    let configuration: TLSConfiguration
    /// SHA-256 of the certificate's DER, as `openssl x509 -fingerprint -sha256` prints it; or,
    /// when that command could not tell it, `unknown` and why (the server serves all the same).
    let fingerprint: String
    let certificatePath: String
    /// The key and certificate were made at this start.
    let made: Bool
    let requiresClientCertificate: Bool

    /// A PEM file of certificates or a key is small; a larger one is a mistake.
    static let maxPEMBytes = 256 * 1024

    static func load(_ source: RemoteTLSSource, clientCA: String?) throws(RemoteError) -> RemoteTLS {
        let certificatePath: String, keyPath: String, made: Bool
        switch source {
        case let .files(certificate, key): (certificatePath, keyPath, made) = (certificate, key, false)
        case let .generated(directory): (certificatePath, keyPath, made) = try SelfSignedCertificate.ensure(in: directory)
        }
        let chain = try certificates(at: certificatePath)
        if let problem = SecretFile.looseness(of: keyPath) { throw .tls(path: keyPath, problem: problem) }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(bytes: try read(keyPath), format: .pem) } catch let error as RemoteError { throw error } catch {
            throw .tls(path: keyPath, problem: "not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        if let clientCA {
            configuration.trustRoots = .certificates(try certificates(at: clientCA))
            // A client without a certificate the CA signed fails the handshake.
            configuration.certificateVerification = .noHostnameVerification
        }
        do { _ = try NIOSSLContext(configuration: configuration) } catch {
            throw .tls(path: keyPath, problem: "the key does not belong to \(certificatePath), or TLS refused them (\(error))")
        }
        let fingerprint: String
        do { fingerprint = try Self.fingerprint(ofFirstIn: certificatePath) } catch { fingerprint = "unknown (\(error))" }
        return RemoteTLS(
            configuration: configuration, fingerprint: fingerprint, certificatePath: certificatePath, made: made,
            requiresClientCertificate: clientCA != nil)
    }

    /// `AB:CD:...`, upper case, 32 bytes, of the file's first certificate: the one the server
    /// presents (NIOSSL and openssl both take the first CERTIFICATE block of a PEM file).
    static func fingerprint(ofFirstIn path: String) throws(OpenSSLCommand.Failure) -> String {
        let printed = try OpenSSLCommand.run(["x509", "-in", path, "-noout", "-fingerprint", "-sha256"])
        // "sha256 Fingerprint=AB:..." (OpenSSL 3; "SHA256 Fingerprint=" before).
        guard let line = printed.split(whereSeparator: \.isNewline).first(where: { $0.lowercased().hasPrefix("sha256 fingerprint=") }),
            let hex = line.split(separator: "=", maxSplits: 1).last.map({ String($0).uppercased() }),
            hex.count == 95, hex.allSatisfy({ $0 == ":" || $0.isHexDigit })
        else { throw OpenSSLCommand.Failure(description: "openssl x509 printed no SHA-256 fingerprint: \(printed.prefix(200))") }
        return hex
    }

    /// The certificate's subject as the log names a caller: `CN=fleet,O=Example`, last attribute
    /// first and escaped as RFC 4514 writes a distinguished name. BoringSSL reads the names and
    /// their string types (NIOSSL's `subjectName`); a type NIOSSL has no name for shows as `?`.
    static func subject(of certificate: NIOSSLCertificate) -> String {
        certificate.subjectName.reversed().map { name in
            let key: String
            switch name.type {
            case .commonName: key = "CN"
            case .organization: key = "O"
            case .organizationalUnit: key = "OU"
            case .country: key = "C"
            case .state: key = "ST"
            case .city: key = "L"
            case .emailAddress: key = "E"
            case .userId: key = "UID"
            default: key = "?"
            }
            return key + "=" + escaped(name.value)
        }.joined(separator: ",")
    }

    /// RFC 4514's escapes: the separators and quotes anywhere, a space or `#` leading, and a
    /// space trailing, so that a value cannot pass for another attribute.
    static func escaped(_ value: String) -> String {
        let characters = Array(value)
        let leading = characters.prefix { $0 == " " || $0 == "#" }.count
        let trailing = characters.dropFirst(leading).reversed().prefix { $0 == " " }.count
        var result = ""
        for (index, character) in characters.enumerated() {
            let edge = index < leading || index >= characters.count - trailing
            if edge || ",+\"\\<>;".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// The subject of the certificate the client on `channel` presented, or nil.
    static func peerSubject(on channel: any Channel) -> String? {
        guard channel.eventLoop.inEventLoop, let handler = try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self),
            let certificate = handler.peerCertificate
        else { return nil }
        return subject(of: certificate)
    }

    /// `peerSubject(on:)` from off the channel's event loop.
    static func peerSubject(of channel: any Channel) async -> String? {
        try? await channel.eventLoop.submit { peerSubject(on: channel) }.get()
    }

    private static func read(_ path: String) throws(RemoteError) -> [UInt8] {
        do { return try FileIO.readAll(path: path, limit: maxPEMBytes) } catch { throw .tls(path: path, problem: "\(error)") }
    }

    private static func certificates(at path: String) throws(RemoteError) -> [NIOSSLCertificate] {
        let bytes = try read(path)
        let found: [NIOSSLCertificate]
        do { found = try NIOSSLCertificate.fromPEMBytes(bytes) } catch {
            throw .tls(path: path, problem: "not PEM certificates (\(error))")
        }
        guard !found.isEmpty else { throw .tls(path: path, problem: "no PEM certificate in it") }
        return found
    }
}

/// The key and self-signed certificate a server without given ones makes once and keeps.
enum SelfSignedCertificate {
    static let certificateName = "remote-tls-certificate.pem"
    static let keyName = "remote-tls-key.pem"

    /// The paths of the pair in `directory`, made (with the folder) when either is missing.
    static func ensure(in directory: String) throws(RemoteError) -> (certificate: String, key: String, made: Bool) {
        let certificatePath = directory + "/" + certificateName, keyPath = directory + "/" + keyName
        if access(certificatePath, F_OK) == 0 && access(keyPath, F_OK) == 0 { return (certificatePath, keyPath, false) }
        let advice = "set STATE_DIRECTORY to a folder the app may write, or give --remote-tls-certificate and --remote-tls-key"
        do { try FileIO.makeDirectory(directory) } catch { throw .tls(path: directory, problem: "\(error) (\(advice))") }
        let (certificatePEM, keyPEM): ([UInt8], [UInt8])
        do { (certificatePEM, keyPEM) = try make(names: [hostName(), "localhost"], in: directory) } catch {
            throw .tls(
                path: certificatePath,
                problem:
                    "making a self-signed certificate failed: \(error) (install openssl, or give --remote-tls-certificate and --remote-tls-key)"
            )
        }
        do {
            // The key first: a certificate whose key was lost is worth nothing.
            try FileIO.writeAll(keyPEM, path: keyPath, mode: 0o600, keepsMode: false, durable: true)
            try FileIO.writeAll(certificatePEM, path: certificatePath, mode: 0o644, keepsMode: false, durable: true)
        } catch {
            throw .tls(path: directory, problem: "\(error) (\(advice))")
        }
        return (certificatePath, keyPath, true)
    }

    /// A P-256 key and a certificate for it, signed by itself, valid for twenty years: like an
    /// SSH host key, it is trusted by its fingerprint, not by its dates. `openssl req` makes
    /// them in a folder of its own in `folder` (mode 0700: the key is never where others may
    /// look), from a request file of its own (no system openssl.cnf adds CA:TRUE or asks).
    static func make(names: [String], in folder: String) throws -> (certificate: [UInt8], key: [UInt8]) {
        var template = Array((folder + "/.remote-tls-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw OpenSSLCommand.Failure(description: "mkdtemp in \(folder): " + String(cString: strerror(errno)))
        }
        let work = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let request = work + "/request.cnf", key = work + "/key.pem", certificate = work + "/certificate.pem"
        defer {
            for path in [request, key, certificate] { _ = unlink(path) }
            _ = rmdir(work)
        }
        try FileIO.writeAll(Array(self.request(names: names).utf8), path: request, mode: 0o600, keepsMode: false)
        _ = try OpenSSLCommand.run([
            "req", "-x509", "-config", request, "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-days", "\(20 * 365)", "-keyout", key, "-out", certificate,
        ])
        return (
            try FileIO.readAll(path: certificate, limit: RemoteTLS.maxPEMBytes), try FileIO.readAll(path: key, limit: RemoteTLS.maxPEMBytes)
        )
    }

    /// `openssl req`'s configuration: the subject (the first name, of "Glide kiosk") and the
    /// extensions of a server's certificate that is no CA. Names are host names (`dnsName`).
    static func request(names: [String]) -> String {
        """
        [req]
        distinguished_name = subject
        x509_extensions = extensions
        prompt = no
        [subject]
        O = Glide kiosk
        CN = \(names[0])
        [extensions]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = \(names.map { "DNS:" + $0 }.joined(separator: ", "))

        """
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "glide" }
        return dnsName(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? "glide"
    }

    /// `name` when it is a host name (letters, digits, `-` and `.`, at most 64, a common name's
    /// limit), else nil: anything else has no place in a certificate's DNS name, nor in the
    /// request file, where `$`, `#` or a newline would mean something to openssl.
    static func dnsName(_ name: String) -> String? {
        guard (1...64).contains(name.utf8.count), name.first != "-", name.first != "." else { return nil }
        let hostly = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        return hostly ? name : nil
    }
}

/// Files that hold secrets (a token file, a TLS key): like ssh with a private key, one that its
/// group or others may read or write is refused.
enum SecretFile {
    /// Why the file at `path` is not private, or nil when it is (or cannot be looked at: reading
    /// it then says why).
    static func looseness(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        guard info.st_mode & 0o066 != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return "its mode is \(mode): group or others may read or write it (chmod 600 \(path))"
    }
}
