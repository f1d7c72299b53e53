import Dispatch
import ImageCodecs
import Raster
import Testing
@testable import RemoteControl
#if canImport(Glibc)
import Glibc
#endif

/// The remote-control API over loopback against a real app (UI.Window) in the real-time headless loop.
@Suite(.serialized) struct EndpointTests {
    /// Premultiplied opaque ARGB of the five pages.
    static let pageColors: [UInt32] = [0xFFE6_3946, 0xFF2A_9D8F, 0xFFE9_C46A, 0xFF45_7B9D, 0xFFF4_A261]

    func screenshot(_ h: Harness) async throws -> PixelBuffer {
        let r = try await h.request("GET", "/screenshot.png")
        #expect(r.status == 200)
        #expect(r.header("content-type") == "image/png")
        return try PNG.decode(r.body)
    }

    @Test func screenshotAndStateShowTheFirstPage() async throws {
        let h = try await Harness()
        let rest = try decode(WaitReply.self, try await h.request("POST", "/wait?until=rest&timeout_ms=5000").text)
        #expect(rest.atRest)
        let image = try await screenshot(h)
        #expect(image.width == 640 && image.height == 400)
        #expect(image[100, 100] == Self.pageColors[0])
        let state = try decodeState(try await h.state())
        #expect(state.scrollViews.first { $0.id == "pager" }?.page == 0)
        #expect(state.pageControls.first?.id == "dots")
        #expect(state.frameNumber >= 1)
        await h.shutdown()
    }

    /// `?mask=` paints the named views over (a clock, a caret: what a golden leaves out), where
    /// `/state` says they are; an id not on screen is 404, a mask on the scanout 400.
    @Test func aMaskPaintsTheNamedViewsOver() async throws {
        let h = try await Harness()
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let plain = try await screenshot(h)
        let r = try await h.request("GET", "/screenshot.png?mask=dots")
        #expect(r.status == 200)
        let masked = try PNG.decode(r.body)
        let state = try decodeState(try await h.state())
        let dots = try #require(state.pageControls.first { $0.id == "dots" }).frame.map { Int($0) }
        // Every pixel that changed is the mask's colour; they make one rectangle (the view's
        // frame), which holds the dots the state reports.
        var painted: [(Int, Int)] = []
        for y in 0..<masked.height {
            for x in 0..<masked.width where masked[x, y] != plain[x, y] {
                #expect(masked[x, y] == 0xFFFF_00FF, "(\(x), \(y)) changed to something else")
                painted.append((x, y))
            }
        }
        let xs = painted.map(\.0), ys = painted.map(\.1)
        let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? -1, ys.min() ?? 0, ys.max() ?? -1)
        #expect(!painted.isEmpty && painted.count == (x1 - x0 + 1) * (y1 - y0 + 1))
        #expect(x0 <= dots[0] && x1 >= dots[0] + dots[2] - 1 && y0 <= dots[1] && y1 >= dots[1] + dots[3] - 1)
        let missing = try await h.request("GET", "/screenshot.png?mask=dots,clock")
        #expect(missing.status == 404 && missing.text.contains("'clock'"))
        #expect(try await h.request("GET", "/screenshot.png?source=scanout&mask=dots").status == 400)
        await h.shutdown()
    }

    @Test func aScanoutScreenshotIsReadBackFromTheDisplayOr409() async throws {
        let h = try await Harness()
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let canvas = try await h.request("GET", "/screenshot.png")
        let scanout = try await h.request("GET", "/screenshot.png?source=scanout")
        #expect(scanout.status == 200 && scanout.body == canvas.body)
        let bad = try await h.request("GET", "/screenshot.png?source=panel")
        #expect(bad.status == 400 && bad.text.contains("source=scanout"))
        await h.shutdown()

        let blind = try await Harness(readsBack: false)
        let refused = try await blind.request("GET", "/screenshot.png?source=scanout")
        #expect(refused.status == 409 && refused.text.contains("cannot read back"))
        #expect(try await blind.request("GET", "/screenshot.png").status == 200)
        await blind.shutdown()
    }

    @Test func displayOffAndOnAsIdleBlankingDoesIt() async throws {
        let h = try await Harness()
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let off = try await h.request("POST", "/display", body: Array("{\"on\": false}".utf8))
        #expect(off.status == 200 && off.text.contains("\"on\":false"))
        #expect(try await h.state().contains("\"display\":{\"on\":false,\"reason\":\"remote\"}"))
        // Headless, the screen is dark with a black frame: the display's own pixels are black.
        let dark = try PNG.decode(try await h.request("GET", "/screenshot.png?source=scanout").body)
        #expect(dark[100, 100] == 0xFF00_0000 && dark[600, 350] == 0xFF00_0000)
        let on = try await h.request("POST", "/display", body: Array("{\"on\":true}".utf8))
        #expect(on.status == 200 && on.text.contains("\"on\":true"))
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let back = try PNG.decode(try await h.request("GET", "/screenshot.png?source=scanout").body)
        #expect(back[100, 100] == Self.pageColors[0])
        for body in ["", "{}", "{\"on\":\"yes\"}", "[true]", String(repeating: " ", count: 5000)] {
            let r = try await h.request("POST", "/display", body: Array(body.utf8))
            #expect(r.status == 400 || r.status == 413, "body \(body.prefix(20))")
        }
        #expect(try await h.request("GET", "/display").status == 405)
        #expect(try await h.state().contains("\"display\":{\"on\":true,\"reason\":\"on\"}"))
        await h.shutdown()
    }

    @Test func swipeMovesToTheNextPage() async throws {
        let h = try await Harness()
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let before = now()
        let r = try await h.request("POST", "/events", body: Array(swipeScript(fromX: 500, toX: 150, y: 200).utf8))
        #expect(r.status == 200, "\(r.text)")
        let applied = try decode(EventsReply.self, r.text)
        #expect(applied.events == 17)
        #expect(applied.arrival >= before - 0.001)
        #expect(applied.lastApplied >= applied.firstApplied && applied.firstApplied >= applied.arrival)
        // The script's 124 ms span passed on the loop's clock before the reply.
        #expect(applied.lastApplied - applied.arrival >= 0.124 - 0.001)
        let w = try await h.request("POST", "/wait?until=rest&timeout_ms=10000")
        #expect(w.status == 200)
        let rest = try decode(WaitReply.self, w.text)
        #expect(rest.atRest)
        #expect(rest.state.scrollViews.first { $0.id == "pager" }?.page == 1)
        #expect(rest.state.scrollViews.first { $0.id == "pager" }?.phase == "idle")
        let image = try await screenshot(h)
        #expect(image[100, 100] == Self.pageColors[1])
        await h.shutdown()
    }

    @Test func keyGoesToTheLastPage() async throws {
        let h = try await Harness()
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let r = try await h.request("POST", "/events", body: Array("{\"t\":0,\"key\":\"End\"}\n".utf8))
        #expect(r.status == 200, "\(r.text)")
        #expect(try decode(EventsReply.self, r.text).events == 1)
        let rest = try decode(WaitReply.self, try await h.request("POST", "/wait?until=rest&timeout_ms=10000").text)
        #expect(rest.atRest)
        #expect(rest.state.scrollViews.first { $0.id == "pager" }?.page == 4)
        let image = try await screenshot(h)
        #expect(image[100, 100] == Self.pageColors[4])
        await h.shutdown()
    }

    @Test func tapOnThePageControlAdvances() async throws {
        let h = try await Harness()
        _ = try await h.request("POST", "/wait?until=rest&timeout_ms=5000")
        let state = try decodeState(try await h.state())
        let f = try #require(state.pageControls.first?.frame)
        let (x, y) = (f[0] + f[2] - 4, f[1] + f[3] / 2)
        let tap = "{\"t\":0,\"touch\":\"down\",\"id\":0,\"x\":\(x),\"y\":\(y)}\n{\"t\":50,\"touch\":\"up\",\"id\":0}\n"
        #expect(try await h.request("POST", "/events", body: Array(tap.utf8)).status == 200)
        let rest = try decode(WaitReply.self, try await h.request("POST", "/wait?until=rest&timeout_ms=10000").text)
        #expect(rest.state.pageControls.first?.currentPage == 1)
        await h.shutdown()
    }

    @Test func waitTimesOutWhileEventsArePending() async throws {
        let h = try await Harness()
        // A tap four seconds from now keeps the UI busy (an event is pending) past a 100 ms wait.
        // The events request may reach the loop late on a loaded machine, and until it does the
        // UI is at rest: waits are repeated until one sees the pending tap, for up to 3 s.
        let later = "{\"t\":4000,\"touch\":\"down\",\"id\":0,\"x\":300,\"y\":200}\n{\"t\":4040,\"touch\":\"up\",\"id\":0}\n"
        async let events = h.request("POST", "/events", body: Array(later.utf8))
        let start = ContinuousClock.now
        var w = try await h.request("POST", "/wait?until=rest&timeout_ms=100")
        while w.status == 200, ContinuousClock.now - start < .seconds(3) {
            try await Task.sleep(for: .milliseconds(50))
            w = try await h.request("POST", "/wait?until=rest&timeout_ms=100")
        }
        #expect(w.status == 408)
        let reply = try decode(WaitReply.self, w.text)
        #expect(!reply.atRest)
        #expect(reply.state.scrollViews.contains { $0.id == "pager" })
        #expect(try await events.status == 200)
        await h.shutdown()
    }

    /// A page on another site, or on a name rebound to 127.0.0.1, cannot drive the kiosk: the
    /// requests a browser sends without asking first are refused.
    @Test func otherOriginsAndNonJSONBodiesAreRefused() async throws {
        let h = try await Harness()
        let tap = Array("{\"t\":0,\"key\":\"End\"}".utf8), off = Array("{\"on\":false}".utf8)
        for headers in [
            ["Origin: http://evil.example"], ["Origin: null"], ["Content-Type: text/plain"],
            ["Content-Type: application/x-www-form-urlencoded"], ["Content-Type: multipart/form-data; boundary=x"],
            ["Content-Type: "],
        ] {
            for (path, body) in [("/events", tap), ("/display", off)] {
                let r = try await h.request("POST", path, body: body, headers: headers)
                #expect(r.status == 403 || r.status == 415, "\(headers) \(path): \(r.status) \(r.text)")
            }
        }
        // DNS rebinding: a Host that is not a loopback name.
        let rebound = try await Blocking.run { [port = h.port] in
            try HTTPClient.sendRaw(port: port, Array("GET /state HTTP/1.1\r\nHost: evil.example:8080\r\nConnection: close\r\n\r\n".utf8))
        }
        #expect(rebound.status == 403)
        // The display is still on and nothing was injected; same-origin and JSON requests work.
        let state = try await h.state()
        #expect(state.contains("\"on\":true"))
        let same = try await h.request(
            "POST", "/events", body: tap, headers: ["Origin: http://127.0.0.1", "Content-Type: application/json; charset=utf-8"])
        #expect(same.status == 200, "\(same.text)")
        await h.shutdown()
    }

    /// An HTTP/1.0 request without keep-alive gets its reply and then the connection closes
    /// (it stayed open until the idle timeout); HTTP/1.1 and a 1.0 keep-alive stay open.
    @Test func http10ConnectionsClose() async throws {
        let h = try await Harness()
        let port = h.port
        let reply = try await Blocking.run {
            try HTTPClient.sendRaw(port: port, Array("GET /state HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        }
        #expect(reply.status == 200 && reply.text.contains("scrollViews"))
        // Kept alive: the reply comes and the connection stays open (the read times out).
        let kept = try await Blocking.run { () throws -> Bool in
            let fd = try HTTPClient.connect(port: port)
            defer { close(fd) }
            var second = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &second, socklen_t(MemoryLayout<timeval>.size))
            try HTTPClient.sendAll(fd, Array("GET /state HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n".utf8))
            return (try? HTTPClient.readAll(fd)) == nil
        }
        #expect(kept)
        await h.shutdown()
    }

    @Test func badRequestsAreRefusedAndTheAppKeepsRunning() async throws {
        let h = try await Harness()
        func expectError(_ body: String, status: Int = 400, line: Int?, _ fragment: String) async throws {
            let r = try await h.request("POST", "/events", body: Array(body.utf8))
            #expect(r.status == status, "\(body): \(r.text)")
            let e = try decode(ErrorReply.self, r.text)
            #expect(e.line == line, "\(e.error)")
            #expect(e.error.contains(fragment), "\(e.error)")
        }
        try await expectError("{\"t\":0,\"key\":\"End\"}\n{not json\n", line: 2, "line 2")
        try await expectError("{\"t\":0,\"touch\":\"wiggle\",\"id\":0,\"x\":1,\"y\":1}", line: 1, "unknown touch")
        try await expectError(
            "{\"t\":0,\"touch\":\"down\",\"id\":0,\"x\":1,\"y\":1}\n{\"t\":5,\"touch\":\"move\",\"id\":0,\"x\":2,\"y\":2}",
            line: 2, "still down")
        try await expectError(
            "{\"t\":0,\"pointer\":\"press\",\"x\":1,\"y\":1}\n{\"t\":5,\"pointer\":\"move\",\"x\":2,\"y\":2}",
            line: 2, "still pressed")
        // A CRLF body is the same script (it used to fail as "line 1: not a JSON object").
        let crlf = try await h.request("POST", "/events", body: Array("{\"t\":0,\"key\":\"End\"}\r\n{\"t\":5,\"key\":\"Home\"}\r\n".utf8))
        #expect(crlf.status == 200, "\(crlf.text)")
        try await expectError("\n\n{\"t\":0,\"screenshot\":\"a\"}", line: 3, "GET /screenshot.png")
        try await expectError("{\"t\":10,\"key\":\"End\"}\n{\"t\":5,\"key\":\"End\"}", line: 2, "backwards")
        try await expectError("{\"t\":9999999,\"key\":\"End\"}", line: 1, "beyond")
        try await expectError("\u{FF}\u{FE}garbage", line: 1, "line 1")
        // Typed text arrives as sent or not at all: bytes that are not UTF-8 are refused.
        let notUTF8 = try await h.request("POST", "/events", body: Array("{\"t\":0,\"type\":\"ab".utf8) + [0xFF, 0xFE] + Array("\"}".utf8))
        #expect(notUTF8.status == 400 && notUTF8.text.contains("not UTF-8"), "\(notUTF8.text)")
        try await expectError("{\"t\":0,\"type\":\"" + String(repeating: "x", count: 70_000) + "\"}", line: 1, "at most 65536")
        let typed = try await h.request("POST", "/events", body: Array("{\"t\":0,\"type\":\"Grüße \\u0000東京\"}".utf8))
        #expect(typed.status == 200, "\(typed.text)")
        for path in ["/wait?until=frame", "/wait?timeout_ms=-5", "/wait?timeout_ms=abc", "/wait?timeout_ms=999999999"] {
            let r = try await h.request("POST", path)
            #expect(r.status == 400, "\(path): \(r.text)")
        }
        #expect(try await h.request("GET", "/nothing").status == 404)
        #expect(try await h.request("DELETE", "/state").status != 200)
        // An empty script is fine and applies nothing.
        let empty = try await h.request("POST", "/events", body: [])
        #expect(empty.status == 200)
        #expect(try decode(EventsReply.self, empty.text).events == 0)
        // Still alive.
        #expect(try await h.request("GET", "/state").status == 200)
        await h.shutdown()
    }

    @Test func largeBodiesGet413() async throws {
        let h = try await Harness(maxBodyBytes: 1 << 20)
        let line = "{\"t\":0,\"key\":\"End\"}\n"
        let body = Array(String(repeating: line, count: (3 << 19) / line.utf8.count).utf8)  // 1.5 MB
        let port = h.port
        let reply = try await Blocking.run { () throws -> HTTPReply in
            let fd = try HTTPClient.connect(port: port)
            defer { close(fd) }
            let head = HTTPClient.requestHead(method: "POST", path: "/events", bodyCount: body.count, headers: [], token: nil)
            // The server may answer and close before the whole body is sent; that is fine.
            try? HTTPClient.sendAll(fd, head + body)
            return try HTTPClient.parse(HTTPClient.readAll(fd))
        }
        #expect(reply.status == 413, "\(reply.text)")
        #expect(try await h.request("GET", "/state").status == 200)
        await h.shutdown()
    }

    @Test func tokenIsCheckedOnEveryRequestAndRefusalsAreLogged() async throws {
        // The waits run on a clock held still: a request delayed by a busy machine cannot outlast them.
        let attempts = HeldClock()
        let h = try await Harness(token: "s3cret-token", attempts: attempts)
        #expect(try await h.request("GET", "/state").status == 401)
        #expect(try await h.request("GET", "/screenshot.png", token: "wrong").status == 401)
        #expect(try await h.request("POST", "/events", body: Array("{\"t\":0,\"key\":\"End\"}".utf8), token: "s3cret-toke").status == 401)
        #expect(try await h.request("POST", "/wait", headers: ["Authorization: Basic czNjcmV0LXRva2Vu"]).status == 401)
        #expect(try await h.request("GET", "/state", token: "wrong-again").status == 401)
        // Four wrong tokens from this address (the request without one was no guess): the next
        // attempt waits half a second, even with the right token (it is not checked meanwhile).
        let slowed = try await h.request("GET", "/state", token: "s3cret-token")
        #expect(slowed.status == 429 && slowed.header("Retry-After") == "1", "\(slowed.status) \(slowed.text)")
        attempts.advance(by: 0.6)
        #expect(try await h.request("GET", "/state", token: "s3cret-token").status == 200)
        #expect(try await h.request("GET", "/screenshot.png", token: "s3cret-token").status == 200)
        let refusals = h.log.lines.withLockedValue { $0.filter { $0.contains("remote: 401 ") } }
        #expect(refusals.count == 5, "\(refusals)")
        #expect(refusals.first?.contains("127.0.0.1") == true, "\(refusals)")
        // The page did not change: the refused /events was not injected.
        let state = try decodeState(try await h.request("GET", "/state", token: "s3cret-token").text)
        #expect(state.scrollViews.first { $0.id == "pager" }?.page == 0)
        await h.shutdown()
    }

    @Test func slowClientDoesNotBlockOthers() async throws {
        let h = try await Harness()
        let port = h.port
        let order = OrderLog()
        let fastDone = DispatchSemaphore(value: 0)
        // Sends its request a few bytes at a time, and its last ones only once the other request
        // was answered (or after 10 s, when a server blocked by it answers it first).
        async let slow: HTTPReply = Blocking.run {
            let fd = try HTTPClient.connect(port: port)
            defer { close(fd) }
            let head = HTTPClient.requestHead(method: "GET", path: "/state", bodyCount: 0, headers: [], token: nil)
            var i = 0
            while i < head.count {
                if i + 4 >= head.count { _ = fastDone.wait(timeout: .now() + 10) }
                try HTTPClient.sendAll(fd, Array(head[i..<min(i + 4, head.count)]))
                i += 4
                usleep(60_000)
            }
            let r = try HTTPClient.parse(HTTPClient.readAll(fd))
            order.append("slow")
            return r
        }
        try await Task.sleep(for: .milliseconds(150))
        let fast = try await h.request("GET", "/state")
        order.append("fast")
        fastDone.signal()
        #expect(fast.status == 200)
        #expect(try await slow.status == 200)
        #expect(order.items == ["fast", "slow"])
        await h.shutdown()
    }

    @Test func idleConnectionsAreClosed() async throws {
        let h = try await Harness(idleTimeoutSeconds: 1)
        let port = h.port
        // A client that connects, sends half a request head and then nothing: the server closes
        // the connection (bounded by the client's 10 s receive timeout).
        let data = try await Blocking.run { () throws -> [UInt8] in
            let fd = try HTTPClient.connect(port: port)
            defer { close(fd) }
            try HTTPClient.sendAll(fd, Array("GET /state HTTP/1.1\r\nHost: 127".utf8))
            return try HTTPClient.readAll(fd)
        }
        #expect(!String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(try await h.request("GET", "/state").status == 200)
        await h.shutdown()
    }

    @Test func clientsThatDisconnectMidRequest() async throws {
        let h = try await Harness()
        let port = h.port
        try await Blocking.run { () throws -> Void in
            // A body shorter than its Content-Length, then gone.
            var fd = try HTTPClient.connect(port: port)
            try HTTPClient.sendAll(
                fd,
                HTTPClient.requestHead(method: "POST", path: "/events", bodyCount: 5000, headers: [], token: nil)
                    + Array("{\"t\":0,\"key\":\"End\"}\n{\"t\":1".utf8))
            close(fd)
            // Half a request head, then gone.
            fd = try HTTPClient.connect(port: port)
            try HTTPClient.sendAll(fd, Array("POST /wait?until=rest HTTP/1.1\r\nContent-Le".utf8))
            close(fd)
            // A whole request whose answer takes a while (a wait, a long script), then gone.
            fd = try HTTPClient.connect(port: port)
            try HTTPClient.sendAll(
                fd, HTTPClient.requestHead(method: "POST", path: "/wait?until=rest&timeout_ms=500", bodyCount: 0, headers: [], token: nil))
            close(fd)
            fd = try HTTPClient.connect(port: port)
            let later = Array("{\"t\":300,\"key\":\"Home\"}\n".utf8)
            try HTTPClient.sendAll(
                fd, HTTPClient.requestHead(method: "POST", path: "/events", bodyCount: later.count, headers: [], token: nil) + later)
            close(fd)
        }
        try await Task.sleep(for: .milliseconds(800))
        // The truncated script was not injected (the page stays 0); the complete one was (Home
        // keeps page 0 as well, and it ran without anyone to answer).
        let rest = try decode(WaitReply.self, try await h.request("POST", "/wait?until=rest&timeout_ms=5000").text)
        #expect(rest.atRest)
        #expect(rest.state.scrollViews.first { $0.id == "pager" }?.page == 0)
        #expect(try await h.request("GET", "/screenshot.png").status == 200)
        await h.shutdown()
    }

    /// Long polls have a limit of their own: a flood of waits gets 429 past it while `/state`
    /// still answers; quick requests have their own, larger room.
    @Test func tooManyOpenRequestsGet429() async throws {
        let h = try await Harness()
        let port = h.port
        // Keep the UI busy so no wait is answered early: an event pending for 10 s (one open
        // request), which has arrived once a wait that does not wait times out (408). Ten seconds,
        // and waits of eight, as a busy machine may keep the server from its requests for seconds.
        let body = Array("{\"t\":10000,\"key\":\"Home\"}".utf8)
        async let pending = h.request("POST", "/events", body: body)
        try await h.awaitStatus(408, of: "POST", "/wait?until=rest&timeout_ms=0")
        let waits = try await Blocking.run { () throws -> [Int32] in
            var fds: [Int32] = []
            for _ in 0..<(RemoteInbox.maxWaits * 4) {
                let fd = try HTTPClient.connect(port: port)
                fds.append(fd)
                try HTTPClient.sendAll(
                    fd,
                    HTTPClient.requestHead(
                        method: "POST", path: "/wait?until=rest&timeout_ms=8000",
                        bodyCount: 0, headers: [], token: nil))
            }
            return fds
        }
        // Once the flood has reached the server, one wait more gets 429 while /state answers.
        try await h.awaitStatus(429, of: "POST", "/wait?until=rest&timeout_ms=2000")
        #expect(try await h.request("GET", "/state").status == 200)
        for fd in waits { close(fd) }
        // Event batches scheduled ahead have a small room of their own: the pending one and 15
        // more fill it, the next gets 429, and states and screenshots keep answering.
        let events = try await Blocking.run { () throws -> [Int32] in
            var fds: [Int32] = []
            for _ in 0..<(RemoteInbox.maxScheduledBatches - 1) {
                let fd = try HTTPClient.connect(port: port)
                fds.append(fd)
                try HTTPClient.sendAll(
                    fd,
                    HTTPClient.requestHead(
                        method: "POST", path: "/events", bodyCount: body.count,
                        headers: [], token: nil) + body)
            }
            return fds
        }
        // The room is full once all fifteen have reached the server.
        #expect(await eventually { h.server.inbox.batchesHeld == RemoteInbox.maxScheduledBatches })
        let refused = try await h.request("POST", "/events", body: body)
        #expect(refused.status == 429 && refused.text.contains("event batches"), "\(refused.text)")
        #expect(try await h.request("GET", "/state").status == 200)
        #expect(try await h.request("GET", "/screenshot.png").status == 200)
        for fd in events { close(fd) }
        #expect(try await pending.status == 200)
        try await h.awaitStatus(200, of: "POST", "/events", body: Array("{\"t\":0,\"key\":\"Home\"}".utf8))
        // A batch holds at most 20,000 events.
        let many = (0...RemoteInbox.maxScheduledEvents).map { "{\"t\":\($0 / 100),\"key\":\"Home\"}" }.joined(separator: "\n")
        let big = try await h.request("POST", "/events", body: Array(many.utf8))
        #expect(big.status == 429 || big.status == 413, "\(big.status)")
        await h.shutdown()
    }

    /// A batch whose client went away is dropped: its place is free again and the finger it
    /// put down is lifted (it would have been lifted only a minute later).
    @Test func aBatchWhoseClientLeftIsDropped() async throws {
        let h = try await Harness()
        let port = h.port
        let held = Array(("{\"t\":0,\"touch\":\"down\",\"id\":0,\"x\":300,\"y\":200}\n" + "{\"t\":60000,\"touch\":\"up\",\"id\":0}").utf8)
        let later = Array("{\"t\":90000,\"key\":\"End\"}".utf8)
        try await Blocking.run {
            for body in [held] + Array(repeating: later, count: RemoteInbox.maxScheduledBatches - 1) {
                let fd = try HTTPClient.connect(port: port)
                try HTTPClient.sendAll(
                    fd,
                    HTTPClient.requestHead(
                        method: "POST", path: "/events", bodyCount: body.count,
                        headers: ["Content-Type: application/x-ndjson"], token: nil) + body)
                usleep(50_000)
                close(fd)
            }
        }
        // Every place is free again (once the server has seen the clients go: on a busy machine,
        // later), and the finger is up: the app comes to rest.
        try await h.awaitStatus(200, of: "POST", "/events", body: Array("{\"t\":0,\"key\":\"Home\"}".utf8))
        let rest = try decode(WaitReply.self, try await h.request("POST", "/wait?until=rest&timeout_ms=3000").text)
        #expect(rest.atRest)
        await h.shutdown()
    }

    @Test func requestsAfterTheLoopStoppedGet503() async throws {
        let h = try await Harness()
        h.stopper.stop()
        let finished = h.finished
        _ = await Blocking.run { finished.wait(timeout: .now() + 10) }
        #expect(try await h.request("GET", "/state").status == 503)
        #expect(try await h.request("GET", "/screenshot.png").status == 503)
        finished.signal()  // shutdown() waits for it again
        await h.shutdown()
    }

}

/// The order in which concurrent clients finished.
final class OrderLog: Sendable {
    private let log = NIOLockedValueBox<[String]>([])
    func append(_ s: String) { log.withLockedValue { $0.append(s) } }
    var items: [String] { log.withLockedValue { $0 } }
}

import NIOConcurrencyHelpers
