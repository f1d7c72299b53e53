import AppContract
import Dispatch
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import TestSupport
import Testing
@testable import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// Issue 61's remote cases: the scope comes from the route the router chose and no second
/// spelling of a path is served; a slowed address learns nothing from a socket's answer; a
/// certificate's subject cannot forge an audit line; failed handshakes do not flood the log;
/// one token's logins cannot end another's sessions; audits are admitted one at a time; a
/// deleted token file is logged.
@Suite(.serialized) struct RoundFiveRemoteTests {
    let view = "view-Token-0001", control = "ctrl-Token-0002", admin = "admn-Token-0003"

    /// A request each route takes, as a client would send it.
    func body(for route: RemoteRoutes.Route) -> [UInt8] {
        switch route.path {
        case "/events": Array("{\"t\":0,\"key\":\"End\"}".utf8)
        case "/display": Array("{\"on\":true}".utf8)
        default: []
        }
    }

    func query(for route: RemoteRoutes.Route) -> String {
        switch route.path {
        case "/wait": "?timeout_ms=0"
        case "/clock": "?advance_ms=0"
        default: ""
        }
    }

    /// Every route under every scope and several spellings of its path: the route's own path is
    /// 403 exactly when the token's scope is below the route's; every other spelling is 404,
    /// whatever the token, and never reaches a handler.
    @Test func everyRouteUnderEveryScopeAndSpelling() async throws {
        let h = try await Harness(tokensFile: try writeTokenFile(threeScopes))
        let tokens: [(String, RemoteScope)] = [(view, .view), (control, .control), (admin, .admin)]
        for route in RemoteRoutes.all {
            let p = route.path
            let spellings = [p + "/", "/" + p, p + "//", p.replacing("/", with: "//"), p + "/."]
            for (token, scope) in tokens {
                let own = try await h.request(route.method.rawValue, p + query(for: route), body: body(for: route), token: token)
                #expect((own.status == 403) == (scope < route.scope), "\(route.method) \(p) with \(scope.name): \(own.status) \(own.text)")
                for spelling in spellings where spelling != p {
                    let other = try await h.request(
                        route.method.rawValue, spelling + query(for: route), body: body(for: route), token: token)
                    #expect(other.status == 404, "\(route.method) \(spelling) with \(scope.name): \(other.status) \(other.text)")
                }
            }
        }
        // Only the own spellings with enough scope were audited.
        let audited = h.log.lines.withLockedValue { $0.filter { $0.contains("audit: ") } }
        #expect(audited.allSatisfy { !$0.contains("(view)") && !$0.contains("//") }, "\(audited)")
        #expect(audited.contains { $0.contains("POST /display 200 by 'fleet' (admin)") }, "\(audited)")
        await h.shutdown()
    }

    /// Seeded random spellings of the API's paths (segments, slashes, dots, percent escapes, case) sent
    /// with a view token: none reaches a control or admin handler, none is audited. The
    /// router's side of the fuzzing, run in the suite against the real server (a libFuzzer
    /// target would bring NIO and BoringSSL into the sanitizer build).
    @Test func randomSpellingsNeverEscalate() async throws {
        let h = try await Harness(tokensFile: try writeTokenFile(threeScopes))
        var rng = SeededGenerator(seed: 0x61_0F_5A7E)  // the same 300 spellings every run
        let pieces = [
            "/", "//", "events", "display", "clock", "wait", "Events", "%2F", "%64isplay", ".", "..", "live", "logout", "%2e", ";",
            "?on=1#",
        ]
        for _ in 0..<300 {
            let path = "/" + (0..<Int.random(in: 1...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let reply = try await h.request("POST", path, body: Array("{\"on\":false}".utf8), token: view)
            let route = RemoteRoutes.all.first { $0.path == path.split(separator: "?").first.map(String.init) && $0.method == .post }
            if reply.status / 100 == 2 {
                #expect(route.map { $0.scope == .view } == true, "POST \(path) with a view token: \(reply.status)")
            }
        }
        #expect(h.log.lines.withLockedValue { $0.allSatisfy { !$0.contains("audit: ") } })
        await h.shutdown()
    }

    /// While an address must wait, the right token's socket gets the same 429 as a wrong one's.
    @Test func aSlowedAddressGets429WithTheRightTokenToo() async throws {
        // The wait runs on a clock held still, so that it lasts however slowly the sockets come.
        let h = try await Harness(tokensFile: try writeTokenFile(threeScopes), attempts: HeldClock())
        for i in 0..<5 { _ = try await h.request("GET", "/state", token: "wrong-Token-00\(i)9") }
        let port = h.port
        for token in ["wrong-Token-0109", view] {
            let status = try await Blocking.run {
                try Self.upgradeStatus(port: port, token: token)
            }
            #expect(status == 429, "a socket with \(token == view ? "the right" : "a wrong") token: \(status)")
        }
        await h.shutdown()
    }

    /// The status line of a WebSocket upgrade to `/live/socket`.
    static func upgradeStatus(port: Int, token: String) throws -> Int {
        let fd = try HTTPClient.connect(port: port)
        defer { close(fd) }
        let head =
            "GET /live/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n"
        try HTTPClient.sendAll(fd, Array(head.utf8))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(13) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        let line = String(decoding: received, as: UTF8.self).split(separator: " ")
        return line.count > 1 ? Int(line[1]) ?? 0 : 0
    }

    /// A subject with a newline, escape sequences or 30 KB names its caller on one short line.
    @Test func aCertificateSubjectCannotForgeAnAuditLine() {
        let forged =
            "CN=x' (admin) from 10.0.0.9\nnotice audit: POST /display 200 by 'ci' (control)\u{1B}[2K"
            + String(repeating: "A", count: 30_000)
        let caller = Caller.certified(forged)
        #expect(!caller.name.contains("\n") && !caller.name.unicodeScalars.contains { $0.value < 0x20 })
        #expect(!caller.name.contains("x'"), "a quote in the subject closes the name: \(caller.name)")
        #expect(caller.name.unicodeScalars.count < 300)
        let log = LogCollector()
        AuditLog(logger: log.logger).record("POST /events 200", by: caller, from: "10.0.0.9:5000")
        let lines = log.lines.withLockedValue { $0 }
        #expect(lines.count == 1 && !lines[0].contains("\n"))
        #expect(Caller.certified("CN=fleet-controller,O=Example Fleet").name == "CN=fleet-controller,O=Example Fleet")
    }

    /// Failed TLS handshakes are logged with their peer, a few a second, not one line each.
    @Test func failedHandshakesDoNotFloodTheLog() async throws {
        let folder = "/tmp/glide-round-five-\(getpid())"
        let h = try await Harness(token: "flood-Token-0001", tls: .generated(directory: folder))
        let port = h.port
        let started = ContinuousClock.now
        for _ in 0..<60 {
            _ = try? await Blocking.run { try HTTPClient.sendRaw(port: port, Array("GET /state HTTP/1.1\r\n\r\n".utf8)) }
        }
        let sending = ContinuousClock.now - started
        // The server logs a handshake's failure when it has handled it: on a busy machine, later.
        _ = await eventually(within: 5) { h.log.lines.withLockedValue { $0.contains { $0.contains("remote: connection from") } } }
        let lines = h.log.lines.withLockedValue { $0 }
        let failures = lines.filter { $0.contains("remote: connection from") }
        #expect(!lines.contains { $0.hasPrefix("error") && $0.contains("upgrade result") }, "\(lines.suffix(3))")
        // Ten lines a second at most, over the seconds the handshakes took (a fraction of one here;
        // a busy machine spreads them) and one more for the last ones handled; never one for each.
        let seconds = Int(sending.components.seconds)
        #expect(failures.count <= min(59, 10 * (seconds + 2)), "\(failures.count) lines for 60 failed handshakes in \(sending)")
        #expect(failures.first?.contains("from 127.0.0.1:") == true, "\(lines.prefix(5))")
        await h.shutdown()
    }

    /// A flood of logins with a view token ends none of an admin's sessions.
    @Test func oneTokensLoginsEndOnlyItsOwnSessions() {
        let keyring = Keyring([
            RemoteToken(name: "dashboard", scope: .view, secret: view), RemoteToken(name: "fleet", scope: .admin, secret: admin),
        ])
        func caller(_ secret: String) -> Caller? {
            keyring.identify([.authorization: "Bearer \(secret)"], session: false, address: "10.0.0.5")
        }
        let fleet = try! #require(caller(admin)), dashboard = try! #require(caller(view))
        let cookie = try! #require(keyring.openSession(for: fleet, address: "10.0.0.5", secure: true))
        let value = String(cookie.split(separator: ";")[0])
        for _ in 0..<(Keyring.maxSessions * 2) { _ = keyring.openSession(for: dashboard, address: "10.0.0.6", secure: true) }
        #expect(keyring.identify([.cookie: value], session: true, address: "10.0.0.5")?.name == "fleet")
    }

    /// Audits run one at a time: a burst is refused with 429 and `/state` stays quick.
    @Test func auditsAreAdmittedOneAtATime() async throws {
        let started = NIOLockedValueBox(0)
        let auditor = ScreenAuditor(rules: ["contrast"]) { _, _, _ in
            started.withLockedValue { $0 += 1 }
            usleep(300_000)  // a large screen's audit, on the loop
            return "{\"findings\":[]}"
        }
        let h = try await Harness(auditor: auditor)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await h.request("GET", "/audit").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count >= 1 && statuses.filter { $0 == 429 }.count >= 4, "\(statuses)")
        #expect(started.withLockedValue { $0 } == statuses.filter { $0 == 200 }.count)
        await h.shutdown()
    }

    /// A token file that is deleted is logged; its tokens stay in force until it is back.
    @Test func aDeletedTokenFileIsLoggedAndItsTokensStay() async throws {
        let path = try writeTokenFile(threeScopes)
        let h = try await Harness(tokensFile: path)
        unlink(path)
        let gone = { h.log.lines.withLockedValue { $0.contains { $0.contains("is gone") && $0.contains(path) } } }
        #expect(await eventually(within: 15) { gone() })
        #expect(try await h.request("GET", "/state", token: view).status == 200)
        try writeReplacing("ci control ctrl-Token-0022\n", path: path)
        // Read again once the watcher (a look a second) finds it: on a busy machine, later.
        try await h.awaitStatus(200, of: "GET", "/state", token: "ctrl-Token-0022")
        #expect(h.log.lines.withLockedValue { $0.contains { $0.contains("the file is back") } })
        await h.shutdown()
    }
}
