import Crypto
import FoundationEssentials
import ImageCodecs
import NIOCore
import NIOSSL
import X509
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
    /// SHA-256 of the certificate's DER, as `openssl x509 -fingerprint -sha256` prints it.
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
        let der: [UInt8]
        do { der = try chain[0].toDERBytes() } catch { throw .tls(path: certificatePath, problem: "\(error)") }
        return RemoteTLS(
            configuration: configuration, fingerprint: fingerprint(ofDER: der), certificatePath: certificatePath, made: made,
            requiresClientCertificate: clientCA != nil)
    }

    /// `AB:CD:...`, upper case, 32 bytes.
    static func fingerprint(ofDER der: [UInt8]) -> String {
        SHA256.hash(data: der).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The certificate's subject as the log names a caller (`CN=fleet,O=Example`).
    static func subject(ofDER der: [UInt8]) -> String? {
        (try? Certificate(derEncoded: der)).map { String(describing: $0.subject) }
    }

    /// The subject of the certificate the client on `channel` presented, or nil.
    static func peerSubject(on channel: any Channel) -> String? {
        guard channel.eventLoop.inEventLoop, let handler = try? channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self),
            let der = try? handler.peerCertificate?.toDERBytes()
        else { return nil }
        return subject(ofDER: der)
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
        let hostName = Self.hostName()
        let (certificatePEM, keyPEM): (String, String)
        do { (certificatePEM, keyPEM) = try make(names: [hostName, "localhost"]) } catch {
            throw .tls(path: certificatePath, problem: "making a self-signed certificate failed: \(error)")
        }
        do {
            try FileIO.makeDirectory(directory)
            // The key first: a certificate whose key was lost is worth nothing.
            try FileIO.writeAll(Array(keyPEM.utf8), path: keyPath, mode: 0o600, keepsMode: false, durable: true)
            try FileIO.writeAll(Array(certificatePEM.utf8), path: certificatePath, mode: 0o644, keepsMode: false, durable: true)
        } catch {
            throw .tls(
                path: directory,
                problem:
                    "\(error) (set STATE_DIRECTORY to a folder the app may write, or give --remote-tls-certificate and --remote-tls-key)")
        }
        return (certificatePath, keyPath, true)
    }

    /// A P-256 key and a certificate for it, signed by itself, valid for twenty years: like an
    /// SSH host key, it is trusted by its fingerprint, not by its dates.
    static func make(names: [String]) throws -> (certificate: String, key: String) {
        let key = P256.Signing.PrivateKey()
        let signer = Certificate.PrivateKey(key)
        let name = try DistinguishedName {
            OrganizationName("Glide kiosk")
            CommonName(names[0])
        }
        let now = Date.now
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signer.publicKey,
            notValidBefore: now - 3600, notValidAfter: now + 20 * 365 * 86400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map { .dnsName($0) })
            },
            issuerPrivateKey: signer)
        return (try certificate.serializeAsPEM().pemString + "\n", key.pemRepresentation + "\n")
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "glide" }
        let name = String(cString: buffer)
        return name.isEmpty ? "glide" : name
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
