import FoundationEssentials
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
