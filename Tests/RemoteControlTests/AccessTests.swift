import FoundationEssentials
import Geometry
import AppContract
import Testing
@testable import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// A token file in a fresh folder, with the given mode.
func writeTokenFile(_ text: String, mode: mode_t = 0o600) throws -> String {
    var template = Array("/tmp/glide-tokens.XXXXXX".utf8CString)
    let folder = String(cString: try #require(mkdtemp(&template)))
    let path = folder + "/tokens"
    try writeReplacing(text, path: path, mode: mode)
    return path
}

/// Writes the file whole under a new inode (as an editor or `mv` does) with `mode`.
func writeReplacing(_ text: String, path: String, mode: mode_t = 0o600) throws {
    let temporary = path + ".new"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
    #expect(fd >= 0)
    _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    fchmod(fd, mode)
    close(fd)
    #expect(rename(temporary, path) == 0)
}

let threeScopes = """
    # name      scope    token
    dashboard   view     view-Token-0001
    ci          control  ctrl-Token-0002

    fleet       admin    admn-Token-0003   
    """

@Suite struct TokenRulesTests {
    @Test func guessableAndInvisibleTokensAreRefused() {
        for weak in [
            "12345678", "password", String(repeating: "\u{200B}", count: 8), "passwordpassword", "123456789012",
            "aaaaaaaaaaa1", "short-1", "with space 12345",
        ] {
            #expect(!isAcceptableToken(weak), "\(weak)")
        }
        for good in ["s3cret-token", "abcdefgh1234", "9f86d081884c7d659a2feaa0c55ad015", "view-Token-0001"] {
            #expect(isAcceptableToken(good), "\(good)")
        }
        #expect(throws: RemoteError.self) { try RemoteConfiguration.parse(address: "0.0.0.0:8080", token: "password") }
    }

    @Test func aTokenFileNamesScopedTokens() throws {
        let tokens = try TokenFile.parse(threeScopes)
        #expect(tokens.map(\.name) == ["dashboard", "ci", "fleet"])
        #expect(tokens.map(\.scope) == [.view, .control, .admin])
        #expect(tokens.map(\.secret) == ["view-Token-0001", "ctrl-Token-0002", "admn-Token-0003"])
    }

    @Test func aBadLineIsNamedWithItsNumber() {
        let cases: [(String, String)] = [
            ("a view view-Token-0001 extra", "line 1: expected NAME SCOPE TOKEN, found 4 fields"),
            ("# c\na owner view-Token-0001", "line 2: scope 'owner': use view, control or admin"),
            ("a view password", "line 1: the token of 'a' is too weak"),
            ("a view view-Token-0001\na admin admn-Token-0003", "line 2: 'a' is named twice"),
            ("a view view-Token-0001\nb admin view-Token-0001", "line 2: the token of 'b' is another name's too"),
            ("b/c view view-Token-0001", "line 1: the name 'b/c' is not letters"),
            ("# only a comment\n", "it names no token"),
        ]
        for (text, message) in cases {
            do {
                _ = try TokenFile.parse(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect("\(error)".hasPrefix(message), "\(error)")
                #expect(!"\(error)".contains("Token-000"), "a secret in the message: \(error)")
            }
        }
    }

    @Test func aFileOthersMayReadIsRefused() throws {
        let loose = try writeTokenFile(threeScopes, mode: 0o644)
        #expect(throws: RemoteError.self) { try TokenFile.load(path: loose) }
        do { _ = try TokenFile.load(path: loose) } catch { #expect("\(error)".contains("mode is 644"), "\(error)") }
        let bad = try writeTokenFile("a view view-Token-0001\nb owner ctrl-Token-0002\n")
        do {
            _ = try TokenFile.load(path: bad)
            Issue.record("accepted a bad scope")
        } catch { #expect("\(error)" == "\(bad):2: scope 'owner': use view, control or admin") }
        let tight = try writeTokenFile(threeScopes, mode: 0o600)
        #expect(try TokenFile.load(path: tight).count == 3)
        #expect(throws: RemoteError.self) {
            try RemoteServer(configuration: try .parse(address: "0.0.0.0:0", token: nil, tokensFile: loose))
        }
    }
}

@Suite struct AttemptThrottleTests {
    @Test func waitsDoubleAfterThreeFailuresUpToABound() {
        let time = HeldClock()
        let throttle = AttemptThrottle(now: { time.now })
        var waits: [Double] = []
        for _ in 0..<12 { waits.append(throttle.failed(from: "10.0.0.5")) }
        #expect(waits == [0, 0, 0, 0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(throttle.wait(for: "10.0.0.5") == 30)
        // Another address is never slowed by it.
        #expect(throttle.wait(for: "10.0.0.6") == 0)
        time.advance(by: 29)
        #expect(throttle.wait(for: "10.0.0.5") == 1)
        // Ten quiet minutes after the last failure, the address starts afresh.
        time.advance(by: 671)
        #expect(throttle.failed(from: "10.0.0.5") == 0)
    }
}

@Suite(.serialized) struct ScopedAccessTests {
    let view = "view-Token-0001", control = "ctrl-Token-0002", admin = "admn-Token-0003"

    @Test func eachScopeAllowsItsRequestsAnd403Otherwise() async throws {
        let h = try await Harness(tokensFile: try writeTokenFile(threeScopes))
        let key = Array("{\"t\":0,\"key\":\"End\"}".utf8)
        let display = Array("{\"on\":true}".utf8)
        #expect(try await h.request("GET", "/state", token: view).status == 200)
        #expect(try await h.request("GET", "/screenshot.png", token: view).status == 200)
        #expect(try await h.request("POST", "/wait?timeout_ms=0", token: view).status != 403)
        let refused = try await h.request("POST", "/events", body: key, token: view)
        #expect(refused.status == 403 && refused.text.contains("needs a token of scope control; 'dashboard' has view"), "\(refused.text)")
        #expect(try await h.request("POST", "/display", body: display, token: control).status == 403)
        #expect(try await h.request("POST", "/events", body: key, token: control).status == 200)
        #expect(try await h.request("POST", "/display", body: display, token: admin).status == 200)
        // A secret a client put in a URL is cut from the log.
        #expect(try await h.request("POST", "/events?note=\(view)", body: key, token: control).status == 200)
        #expect(try await h.request("GET", "/state", token: "wrong-Token-0009").status == 401)
        // Control and admin actions are in the audit log, by name, never with a secret.
        let audit = h.log.lines.withLockedValue { $0.filter { $0.contains("audit: ") } }
        #expect(audit.count == 3, "\(audit)")
        #expect(audit.last?.contains("POST /events?… 200 by 'ci'") == true, "\(audit)")
        #expect(audit.first?.contains("POST /events 200 by 'ci' (control) from 127.0.0.1") == true, "\(audit)")
        #expect(audit.dropFirst().first?.contains("POST /display 200 by 'fleet' (admin)") == true, "\(audit)")
        #expect(audit.allSatisfy { !$0.contains("Token-000") })
        await h.shutdown()
    }

    @Test func aReplacedTokenFileTakesEffectWithoutARestart() async throws {
        let path = try writeTokenFile(threeScopes)
        let h = try await Harness(tokensFile: path)
        #expect(try await h.request("GET", "/state", token: control).status == 200)
        // ci's token changes, dashboard's scope grows, fleet goes.
        try writeReplacing("dashboard control view-Token-0001\nci control ctrl-Token-0022\n", path: path)
        h.server.reloadTokens(because: "a test")
        #expect(try await h.request("GET", "/state", token: control).status == 401)
        #expect(try await h.request("GET", "/state", token: "ctrl-Token-0022").status == 200)
        #expect(try await h.request("POST", "/events", body: Array("{\"t\":0,\"key\":\"End\"}".utf8), token: view).status == 200)
        #expect(try await h.request("GET", "/state", token: admin).status == 401)
        // A file that no longer loads keeps the tokens in force, and says why.
        try writeReplacing("ci control password\n", path: path)
        h.server.reloadTokens(because: "a test")
        #expect(try await h.request("GET", "/state", token: "ctrl-Token-0022").status == 200)
        #expect(h.log.lines.withLockedValue { $0.contains { $0.contains("too weak") && $0.contains("the tokens in force stay") } })
        // The file's change alone is noticed too (checked every second).
        try writeReplacing("ci admin admn-Token-0033\n", path: path)
        try await h.awaitStatus(200, of: "GET", "/state", token: "admn-Token-0033")
        await h.shutdown()
    }
}

@Suite(.serialized) struct VirtualClockTests {
    @Test func timeMovesOnlyWhenAsked() async throws {
        let h = try await Harness(clock: .virtual)
        let first = try decodeState(try await h.state())
        #expect(first.t == 0)
        try await Task.sleep(for: .milliseconds(300))
        let later = try decodeState(try await h.state())
        #expect(later.t == first.t && later.frameNumber == first.frameNumber)
        let moved = try await h.request("POST", "/clock?advance_ms=500")
        #expect(moved.status == 200, "\(moved.text)")
        let advanced = try decode(WaitReply.self, moved.text)
        #expect(advanced.state.t == 0.5)
        #expect(abs(advanced.waitedMs - 500) < 1e-6)
        #expect(try await h.request("POST", "/clock?advance_ms=x").status == 400)
        await h.shutdown()
    }

    @Test func aSwipeEndsOnTheSameFrameHoweverSlowTheMachine() async throws {
        var ends: [[Double]] = []
        for pause in [0, 400] {
            let h = try await Harness(clock: .virtual)
            let r = try await h.request("POST", "/events", body: Array(swipeScript(fromX: 500, toX: 150, y: 200).utf8))
            #expect(r.status == 200, "\(r.text)")
            // Time stood still while the client was away.
            try await Task.sleep(for: .milliseconds(pause))
            let w = try decode(WaitReply.self, try await h.request("POST", "/wait?until=rest&timeout_ms=10000").text)
            #expect(w.atRest)
            let pager = try #require(w.state.scrollViews.first { $0.id == "pager" })
            #expect(pager.page == 1)
            ends.append([w.state.t, Double(w.state.frameNumber)])
            await h.shutdown()
        }
        #expect(ends[0] == ends[1], "\(ends)")
    }

    @Test func theWallClockRefusesToMove() async throws {
        let h = try await Harness()
        #expect(try await h.request("POST", "/clock?advance_ms=10").status == 409)
        await h.shutdown()
    }
}
