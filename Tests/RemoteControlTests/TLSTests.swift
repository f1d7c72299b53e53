import FoundationEssentials
import ImageCodecs
import NIOSSL
import Testing
import TestSupport
@testable import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// TLS for the remote API: the kept self-signed certificate, the checks of given files, and
/// where plain HTTP is allowed. (HTTPS, WSS and client certificates end to end: test_tls.py.)
@Suite struct TLSTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func aSelfSignedCertificateIsMadeOnceAndKept() throws {
        let folder = try makeTemporaryFolder(prefix: "glide-tls") + "/state"
        let first = try RemoteTLS.load(.generated(directory: folder), clientCA: nil)
        #expect(first.made)
        #expect(mode(folder + "/" + SelfSignedCertificate.keyName) == 0o600)
        #expect(mode(folder + "/" + SelfSignedCertificate.certificateName) == 0o644)
        let again = try RemoteTLS.load(.generated(directory: folder), clientCA: nil)
        #expect(!again.made && again.fingerprint == first.fingerprint)
        #expect(first.fingerprint.count == 95 && first.fingerprint.allSatisfy { $0 == ":" || $0.isHexDigit && !$0.isLowercase })
        // Another folder, another key.
        let other = try RemoteTLS.load(.generated(directory: folder + "-other"), clientCA: nil)
        #expect(other.fingerprint != first.fingerprint)
        // The same files given by name are the same certificate.
        let given = try RemoteTLS.load(
            .files(certificate: folder + "/" + SelfSignedCertificate.certificateName, key: folder + "/" + SelfSignedCertificate.keyName),
            clientCA: nil)
        #expect(given.fingerprint == first.fingerprint && !given.made)
    }

    @Test func theMadeCertificateIsAServersOwnForItsHostName() throws {
        let folder = try makeTemporaryFolder(prefix: "glide-tls") + "/state"
        let tls = try RemoteTLS.load(.generated(directory: folder), clientCA: nil)
        let certificate = try #require(try NIOSSLCertificate.fromPEMFile(tls.certificatePath).first)
        let host = SelfSignedCertificate.hostName()
        #expect(RemoteTLS.subject(of: certificate) == "CN=\(host),O=Glide kiosk")
        let names = certificate._subjectAlternativeNames().filter { $0.nameType == .dnsName }.map {
            String(decoding: $0.contents, as: UTF8.self)
        }
        #expect(names == [host, "localhost"])
        #expect(certificate.notValidAfter - certificate.notValidBefore == 20 * 365 * 86400)
        let key = try FileIO.readAll(path: folder + "/" + SelfSignedCertificate.keyName, limit: RemoteTLS.maxPEMBytes)
        #expect(String(decoding: key, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try NIOSSLPrivateKey(bytes: key, format: .pem).derBytes.count > 0)
        // Only the pair is left in the folder: openssl's own working folder is gone.
        #expect(try folderEntries(folder) == [SelfSignedCertificate.certificateName, SelfSignedCertificate.keyName])
        // A server's certificate, no CA: what openssl itself reads in it.
        let text = try OpenSSLCommand.run([
            "x509", "-in", tls.certificatePath, "-noout", "-ext", "basicConstraints,keyUsage,extendedKeyUsage",
        ])
        #expect(
            text.contains("critical\n    CA:FALSE") && text.contains("Digital Signature") && text.contains("TLS Web Server Authentication"))
        #expect(SelfSignedCertificate.dnsName("kiosk-7.example.org") == "kiosk-7.example.org")
        for bad in ["", "-n", ".n", "a b", "x$HOME", "a#b", "a\nb", "kiosk_7", "caf\u{E9}", String(repeating: "a", count: 65)] {
            #expect(SelfSignedCertificate.dnsName(bad) == nil, "\(bad)")
        }
    }

    /// Made with `openssl req` from a request whose subject needs every escape; its fingerprint
    /// is Python's `hashlib.sha256` of the DER, and the subject as `openssl x509 -subject
    /// -nameopt RFC2253` prints it but for `DC` (a type NIOSSL does not name) and `#`.
    static let oddSubjectPEM = """
        -----BEGIN CERTIFICATE-----
        MIICPDCCAeMCFFhQDxejaOKY0feNA3QRCufJcZisMAoGCCqGSM49BAMCMIGfMQsw
        CQYDVQQGEwJGUjEXMBUGA1UECAwOw45sZS1kZS1GcmFuY2UxFjAUBgNVBAoMDUV4
        YW1wbGUsIEluYy4xEzARBgNVBAsMCk9wcytRQTs8YT4xETAPBgNVBAMMCCAjZmxl
        ZXQgMR4wHAYJKoZIhvcNAQkBFg9vcHNAZXhhbXBsZS5vcmcxFzAVBgoJkiaJk/Is
        ZAEZFgdleGFtcGxlMCAXDTI2MTIwMjAwNTEwNVoYDzIxMjYxMTA4MDA1MTA1WjCB
        nzELMAkGA1UEBhMCRlIxFzAVBgNVBAgMDsOObGUtZGUtRnJhbmNlMRYwFAYDVQQK
        DA1FeGFtcGxlLCBJbmMuMRMwEQYDVQQLDApPcHMrUUE7PGE+MREwDwYDVQQDDAgg
        I2ZsZWV0IDEeMBwGCSqGSIb3DQEJARYPb3BzQGV4YW1wbGUub3JnMRcwFQYKCZIm
        iZPyLGQBGRYHZXhhbXBsZTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKA+GUFs
        w+rDoZOu5w0j+H2lzHbITcRf45COgQXxsn/y8MXIzJjuw2SJecwDmP0B3xaU/Gjt
        d8vN/Cv8VB/d8vAwCgYIKoZIzj0EAwIDRwAwRAIgAPtz/MIsk7hL+Q7nM7d1Om24
        h9T2tSfAtgdBT1X3Wr0CIAULRY2uzXbEhl+8qpCV4subV2zBlrbCxVEshyu+16hB
        -----END CERTIFICATE-----

        """

    @Test func fingerprintAndSubjectOfAGivenCertificate() throws {
        let path = try makeTemporaryFolder(prefix: "glide-tls") + "/odd.pem"
        try FileIO.writeAll(Array(Self.oddSubjectPEM.utf8), path: path)
        #expect(
            try RemoteTLS.fingerprint(ofFirstIn: path)
                == "99:2C:3F:BC:C7:FD:A0:09:14:12:41:63:1F:7C:08:B0:53:C3:E5:CF:78:A4:9B:56:E7:FF:17:7C:86:7A:41:08")
        let certificate = try NIOSSLCertificate(bytes: Array(Self.oddSubjectPEM.utf8), format: .pem)
        #expect(
            RemoteTLS.subject(of: certificate)
                == ##"?=example,E=ops@example.org,CN=\ \#fleet\ ,OU=Ops\+QA\;\<a\>,O=Example\, Inc.,ST=Île-de-France,C=FR"##)
        #expect(RemoteTLS.escaped("a \"b\" ") == #"a \"b\"\ "#)
        // Not a certificate, and no openssl: said, not a crash.
        #expect(throws: OpenSSLCommand.Failure.self) { try RemoteTLS.fingerprint(ofFirstIn: path + ".missing") }
        #expect(throws: OpenSSLCommand.Failure(description: "no glide-no-such-openssl command on PATH (Debian's package openssl)")) {
            try OpenSSLCommand.run(["version"], command: "glide-no-such-openssl")
        }
        do { _ = try OpenSSLCommand.run(["x509", "-in", path + ".missing"]) } catch {
            #expect("\(error)".hasPrefix("openssl x509 exited with 1: "))
        }
    }

    @Test func badFilesAreNamedWithTheirProblem() throws {
        let folder = try makeTemporaryFolder(prefix: "glide-tls")
        _ = try RemoteTLS.load(.generated(directory: folder + "/a"), clientCA: nil)
        _ = try RemoteTLS.load(.generated(directory: folder + "/b"), clientCA: nil)
        let certificate = folder + "/a/" + SelfSignedCertificate.certificateName
        let key = folder + "/a/" + SelfSignedCertificate.keyName
        func problem(_ source: RemoteTLSSource, clientCA: String? = nil) -> String {
            do {
                _ = try RemoteTLS.load(source, clientCA: clientCA)
                return "accepted"
            } catch { return "\(error)" }
        }
        // Another pair's key.
        #expect(problem(.files(certificate: certificate, key: folder + "/b/" + SelfSignedCertificate.keyName)).contains("does not belong"))
        // A key others may read, as ssh refuses one.
        chmod(key, 0o640)
        #expect(
            problem(.files(certificate: certificate, key: key))
                == "\(key): its mode is 640: group or others may read or write it (chmod 600 \(key))")
        chmod(key, 0o600)
        // Not PEM, missing, and a client CA that is not one.
        let junk = folder + "/junk.pem"
        let fd = open(junk, O_WRONLY | O_CREAT, 0o600)
        _ = Array("hello\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(problem(.files(certificate: junk, key: key)).hasPrefix("\(junk): "))
        #expect(problem(.files(certificate: certificate, key: junk)).hasPrefix("\(junk): not a PEM private key"))
        #expect(problem(.files(certificate: folder + "/none.pem", key: key)).contains("No such file"))
        #expect(problem(.files(certificate: certificate, key: key), clientCA: junk).hasPrefix("\(junk): "))
        #expect(problem(.files(certificate: certificate, key: key), clientCA: certificate) == "accepted")
        // A folder that cannot be made says what to do.
        #expect(problem(.generated(directory: junk + "/state")).contains("set STATE_DIRECTORY"))
    }

    @Test func plainHTTPIsForLoopbackOnly() throws {
        let loopback = try RemoteConfiguration.parse(address: "127.0.0.1:0", token: nil)
        #expect(loopback.tls == nil && loopback.scheme == "http")
        let lan = try RemoteConfiguration.parse(address: "0.0.0.0:8080", token: "s3cret-token")
        #expect(lan.tls == .generated(directory: RemoteTLSSource.stateDirectory()) && lan.scheme == "https")
        let given = RemoteTLSSource.files(certificate: "/etc/glide/remote.crt", key: "/etc/glide/remote.key")
        #expect(try RemoteConfiguration.parse(address: "127.0.0.1:0", token: nil, tls: given).scheme == "https")
        // A client CA needs TLS, and stands for tokens beyond loopback.
        #expect(throws: RemoteError.self) { try RemoteConfiguration.parse(address: "127.0.0.1:0", token: nil, clientCA: "/ca.pem") }
        #expect(throws: RemoteError.self) { try RemoteConfiguration.parse(address: "0.0.0.0:0", token: nil) }
        let fleet = try RemoteConfiguration.parse(address: "0.0.0.0:0", token: nil, tls: given, clientCA: "/ca.pem")
        #expect(fleet.hasCredentials && fleet.missingProtection() == nil)
        var bare = RemoteConfiguration(host: "10.0.0.5", port: 0, token: "s3cret-token")
        #expect("\(bare.missingProtection()!)".contains("requires TLS"))
        bare.tls = given
        #expect(bare.missingProtection() == nil)
    }

    @Test func theStateFolderFollowsSystemdThenXDG() {
        func folder(_ environment: [String: String]) -> String { RemoteTLSSource.stateDirectory { environment[$0] } }
        #expect(folder(["STATE_DIRECTORY": "/var/lib/glide:/var/lib/other", "HOME": "/root"]) == "/var/lib/glide")
        #expect(folder(["XDG_STATE_HOME": "/home/k/.state", "HOME": "/home/k"]) == "/home/k/.state/glide")
        #expect(folder(["HOME": "/home/k"]) == "/home/k/.local/state/glide")
        #expect(folder(["HOME": "/"]) == "/var/lib/glide")
        #expect(folder([:]) == "/var/lib/glide")
    }
}
