import FoundationEssentials
import Geometry
import HTTPTypes
import ImageCodecs
import Raster
import Runtime
import Testing
import CZlib
@testable import RemoteControl

/// A canvas whose every pixel is different, so a misplaced copy shows.
private func numberedCanvas(_ w: Int, _ h: Int) -> PixelBuffer {
    let b = PixelBuffer(width: w, height: h)
    for y in 0..<h { for x in 0..<w { b.pixels[y * b.stride + x] = 0xFF00_0000 | UInt32(y << 12 | x) } }
    return b
}

private func pixels(_ b: PixelBuffer) -> [UInt32] {
    (0..<b.height).flatMap { y in (0..<b.width).map { b.pixels[y * b.stride + $0] } }
}

@Suite struct LiveScreenTests {
    @Test(arguments: Rotation.allCases)
    func damageCopiedIntoTheMirrorTurnsAsThePanel(rotation: Rotation) throws {
        let screen = numberedCanvas(7, 5)
        let live = LiveScreen()
        let (id, _) = try #require(live.join())
        live.welcome(id, screen: screen, rotation: rotation, frameNumber: 1)
        // The welcome is the whole panel, as /screenshot.png shows it.
        let whole = try #require(live.take(id))
        let panel = RemoteServer.panelImage(screen, rotation: rotation)
        #expect(whole.rects == [panel.bounds])
        #expect(pixels(try #require(live.pixels(of: panel.bounds))) == pixels(panel))
        #expect(live.take(id) == nil)

        // A change of one rectangle reaches the mirror where the panel shows it.
        let changed = IntRect(x: 2, y: 1, width: 3, height: 2)
        for y in changed.y..<changed.maxY { for x in changed.x..<changed.maxX { screen.pixels[y * screen.stride + x] = 0xFFFF_FFFF } }
        live.framePresented(screen, damage: Region(changed), rotation: rotation, frameNumber: 2)
        let update = try #require(live.take(id))
        #expect(update.frameNumber == 2 && update.rects.count == 1)
        let r = update.rects[0]
        #expect(r.width * r.height == 6)
        #expect(pixels(try #require(live.pixels(of: r))) == Array(repeating: 0xFFFF_FFFF, count: 6))
        // Nothing else changed: the mirror equals the turned screen.
        #expect(pixels(try #require(live.pixels(of: panel.bounds))) == pixels(RemoteServer.panelImage(screen, rotation: rotation)))
        // A rectangle the mirror does not hold (its size changed) is not copied.
        #expect(live.pixels(of: IntRect(x: 0, y: 0, width: 8, height: 8)) == nil)
    }

    @Test func aSlowViewerGetsMergedUpdates() throws {
        let screen = numberedCanvas(100, 100)
        let live = LiveScreen()
        let (id, _) = try #require(live.join())
        live.welcome(id, screen: screen, rotation: .none, frameNumber: 0)
        _ = live.take(id)
        // Frames the viewer has not taken yet merge into its region, whatever their number.
        for f in 1...200 {
            live.framePresented(
                screen, damage: Region(IntRect(x: (f * 7) % 90, y: (f * 13) % 90, width: 4, height: 4)),
                rotation: .none, frameNumber: f)
        }
        let update = try #require(live.take(id))
        #expect(update.rects.count <= LiveScreen.maxPieces && update.frameNumber == 200)
        #expect(live.take(id) == nil)
    }

    @Test func withoutViewersNothingIsKept() throws {
        let live = LiveScreen()
        live.framePresented(
            numberedCanvas(10, 10), damage: Region(IntRect(x: 0, y: 0, width: 10, height: 10)),
            rotation: .none, frameNumber: 1)
        #expect(live.state.withLockedValue { $0.mirror } == nil)
        let (id, _) = try #require(live.join())
        live.leave(id)
        #expect(!live.hasViewers && live.state.withLockedValue { $0.mirror } == nil)
    }

    /// At most `maxViewers` in all and `maxViewersPerClient` from one address: a client holding
    /// many sockets keeps no other client out.
    @Test func viewersAreLimitedInAllAndPerClient() throws {
        let live = LiveScreen()
        let greedy = (0..<LiveScreen.maxViewers).compactMap { _ in live.join(from: "10.0.0.66")?.id }
        #expect(greedy.count == LiveScreen.maxViewersPerClient)
        #expect(live.join(from: "10.0.0.7") != nil)
        live.leave(greedy[0])
        #expect(live.join(from: "10.0.0.66") != nil && live.join(from: "10.0.0.66") == nil)
        let ids = (0..<LiveScreen.maxViewers).compactMap { i in live.join(from: "10.0.1.\(i)")?.id }
        #expect(ids.count == LiveScreen.maxViewers - LiveScreen.maxViewersPerClient - 1)
        #expect(live.join(from: "10.0.2.1") == nil)
        live.leave(ids[0])
        #expect(live.join(from: "10.0.2.1") != nil)
    }

    @Test(arguments: LiveScreen.Encoding.allCases)
    func messagesCarryTheirPlaceAndLosslessPixels(encoding: LiveScreen.Encoding) async throws {
        let screen = numberedCanvas(30, 20)
        let live = LiveScreen()
        let (id, _) = try #require(live.join())
        let (other, _) = try #require(live.join())
        live.welcome(id, screen: screen, rotation: .none, frameNumber: 9)
        live.welcome(other, screen: screen, rotation: .none, frameNumber: 9)
        live.framePresented(screen, damage: Region(IntRect(x: 3, y: 4, width: 10, height: 6)), rotation: .none, frameNumber: 10)
        let update = try #require(live.take(id))
        let otherUpdate = try #require(live.take(other))
        let m = try #require(try await live.message(update.rects[0], of: update, last: true, encoding: encoding))
        func u32(_ at: Int) -> Int { Int(m[at]) | Int(m[at + 1]) << 8 | Int(m[at + 2]) << 16 | Int(m[at + 3]) << 24 }
        #expect(m[0] == encoding.code && m[1] == 1)
        #expect([u32(4), u32(8), u32(12), u32(16), u32(20), u32(24), u32(28)] == [0, 0, 30, 20, 30, 20, 10])
        let payload = Array(m[40...])
        switch encoding {
        case .png:
            #expect(pixels(try PNG.decode(payload)) == pixels(screen))
        case .deflate:
            // zlib's stream, as DecompressionStream("deflate") reads it: R, G, B, 255 for each pixel.
            var rgba = [UInt8](repeating: 0, count: 30 * 20 * 4)
            var size = uLong(rgba.count)
            #expect(uncompress(&rgba, &size, payload, uLong(payload.count)) == Z_OK && size == uLong(rgba.count))
            let expected = pixels(screen).flatMap { p in [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF), 255] }
            #expect(rgba == expected)
        }
        // A second viewer, taking the same rectangle of the same frame, gets the same bytes.
        #expect(otherUpdate.rects == update.rects && otherUpdate.version == update.version)
        #expect(try await live.message(otherUpdate.rects[0], of: otherUpdate, last: true, encoding: encoding) == m)
    }
}

@Suite struct CredentialsTests {
    let credentials = Keyring([RemoteToken(name: "token", scope: .admin, secret: "s3cret-token")])

    func fields(_ pairs: [(HTTPField.Name, String)]) -> HTTPFields {
        var f = HTTPFields()
        for (n, v) in pairs { f.append(HTTPField(name: n, value: v)) }
        return f
    }

    func accepts(_ keyring: Keyring, _ headers: HTTPFields, session: Bool, from address: String = "10.0.0.5") -> Bool {
        keyring.identify(headers, session: session, address: address) != nil
    }

    /// The cookie's `NAME=VALUE`.
    func login(_ keyring: Keyring, from address: String = "10.0.0.5", at now: ContinuousClock.Instant = .now) throws -> String {
        let caller = try #require(keyring.identify(fields([(.authorization, "Bearer s3cret-token")]), session: false, address: address))
        let header = try #require(keyring.openSession(for: caller, address: address, secure: true, now: now))
        #expect(header.hasSuffix("; Path=/live; Max-Age=43200; HttpOnly; SameSite=Strict; Secure"))
        return String(header.split(separator: ";")[0])
    }

    @Test func bearerBasicAndTheLiveCookie() throws {
        #expect(accepts(credentials, fields([(.authorization, "Bearer s3cret-token")]), session: false))
        #expect(!accepts(credentials, fields([(.authorization, "Bearer s3cret-tokeN")]), session: false))
        let basic = "Basic " + Data("anyone:s3cret-token".utf8).base64EncodedString()
        #expect(accepts(credentials, fields([(.authorization, basic)]), session: false))
        let wrong = "Basic " + Data("anyone:s3cret".utf8).base64EncodedString()
        #expect(!accepts(credentials, fields([(.authorization, wrong)]), session: false))
        #expect(!accepts(credentials, fields([(.authorization, "Basic !!!")]), session: false))
        let cookie = try login(credentials)
        #expect(!cookie.contains("s3cret-token") && cookie.utf8.count == Keyring.cookie.utf8.count + 1 + 64)
        #expect(accepts(credentials, fields([(.cookie, "theme=dark; " + cookie)]), session: true))
        // The cookie opens the live view only, and another server's cookie opens nothing.
        #expect(!accepts(credentials, fields([(.cookie, cookie)]), session: false))
        let other = Keyring([RemoteToken(name: "token", scope: .admin, secret: "s3cret-token")])
        #expect(!accepts(other, fields([(.cookie, cookie)]), session: true))
    }

    /// Each login is a session of its own, bound to the address it came from, that ends after
    /// its lifetime, at logout, or when its token is replaced.
    @Test func sessionsAreBoundTimedAndEnded() throws {
        let keyring = Keyring([RemoteToken(name: "token", scope: .admin, secret: "s3cret-token")])
        let start = ContinuousClock.now
        let first = try login(keyring, at: start), second = try login(keyring, at: start)
        #expect(first != second)
        #expect(keyring.identify(fields([(.cookie, first)]), session: true, address: "10.0.0.5", now: start + .seconds(3600)) != nil)
        #expect(keyring.identify(fields([(.cookie, first)]), session: true, address: "10.0.0.6", now: start) == nil)
        #expect(
            keyring.identify(fields([(.cookie, first)]), session: true, address: "10.0.0.5", now: start + Keyring.sessionLifetime) == nil)
        // Logout ends that session only.
        #expect(keyring.closeSessions(fields([(.cookie, first)])) == 1)
        #expect(!accepts(keyring, fields([(.cookie, first)]), session: true))
        #expect(accepts(keyring, fields([(.cookie, second)]), session: true))
        // A replaced token ends its sessions; putting the same token back does not revive them.
        keyring.replace(with: [RemoteToken(name: "token", scope: .admin, secret: "n3w-s3cret-token")])
        keyring.replace(with: [RemoteToken(name: "token", scope: .admin, secret: "s3cret-token")])
        #expect(!accepts(keyring, fields([(.cookie, second)]), session: true))
        // At most `maxSessionsPerToken` a token: its oldest goes first.
        let sessions = try (0...Keyring.maxSessionsPerToken).map { _ in try login(keyring) }
        #expect(!accepts(keyring, fields([(.cookie, sessions[0])]), session: true))
        #expect(accepts(keyring, fields([(.cookie, sessions[1])]), session: true))
        // A client certificate's caller has no token and so no session, and is always current.
        #expect(keyring.openSession(for: .certified("CN=fleet"), address: "10.0.0.5", secure: true) == nil)
        #expect(keyring.isCurrent(.certified("CN=fleet")))
    }

    @Test func closeReasonsFitTheirFrame() {
        #expect(RemoteServer.closeReason("short") == "short")
        let wide = RemoteServer.closeReason(String(repeating: "日", count: 100))
        #expect(wide.utf8.count == 123 && wide == String(repeating: "日", count: 41))
    }
}
