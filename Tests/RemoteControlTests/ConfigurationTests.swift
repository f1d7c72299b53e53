import Raster
import Testing
@testable import RemoteControl

@Suite struct ConfigurationTests {
    @Test func parsesAddresses() throws {
        let a = try RemoteConfiguration.parse(address: "127.0.0.1:8080", token: nil)
        #expect(a.host == "127.0.0.1" && a.port == 8080 && a.isLoopback && a.token == nil)
        let b = try RemoteConfiguration.parse(address: "[::1]:0", token: nil)
        #expect(b.host == "::1" && b.port == 0 && b.isLoopback)
        let c = try RemoteConfiguration.parse(address: "localhost:9", token: "")
        #expect(c.isLoopback && c.token == nil)
        let d = try RemoteConfiguration.parse(address: "0.0.0.0:8080", token: "s3cret-token")
        #expect(!d.isLoopback && d.token == "s3cret-token")
    }

    @Test(arguments: ["8080", "127.0.0.1", "127.0.0.1:", ":8080", "127.0.0.1:70000", "127.0.0.1:-1", "::1:8080", "[::1]8080", "[::1:8080"])
    func rejectsBadAddresses(_ text: String) {
        #expect(throws: RemoteError.self) { try RemoteConfiguration.parse(address: text, token: nil) }
    }

    @Test func nonLoopbackNeedsToken() {
        for host in ["0.0.0.0:8080", "192.168.1.5:80", "[::]:8080", "example.org:80", "127.0.0.1.example.org:80"] {
            #expect(throws: RemoteError.self) { try RemoteConfiguration.parse(address: host, token: nil) }
        }
        #expect(throws: RemoteError.self) { try RemoteServer(configuration: RemoteConfiguration(host: "0.0.0.0", port: 0)) }
    }

    @Test func tokensAreLongAndNeverRepeated() {
        for token in ["short", "        ", "has space s", "tab\tinside", "line\r\nbreak"] {
            do {
                _ = try RemoteConfiguration.parse(address: "0.0.0.0:8080", token: token)
                Issue.record("accepted the token \(token.debugDescription)")
            } catch {
                #expect(!"\(error)".contains(token))
                #expect("\(error)".contains("too weak: at least 12 visible ASCII characters"))
            }
        }
    }
}

@Suite struct ScreenshotOrientationTests {
    /// A 3×2 canvas with pixel values 10·y + x.
    func canvas() -> PixelBuffer {
        let b = PixelBuffer(width: 3, height: 2)
        for y in 0..<2 { for x in 0..<3 { b[x, y] = UInt32(10 * y + x) } }
        return b
    }

    @Test func unrotatedIsACopy() {
        let c = canvas()
        let p = RemoteServer.panelImage(c, rotation: .none)
        #expect(p !== c && p.width == 3 && p.height == 2)
        #expect((0..<2).allSatisfy { y in (0..<3).allSatisfy { x in p[x, y] == UInt32(10 * y + x) } })
    }

    @Test func clockwiseQuarterTurn() {
        // Canvas rows 0 1 2 / 10 11 12 turned clockwise: panel rows 10 0 / 11 1 / 12 2.
        let p = RemoteServer.panelImage(canvas(), rotation: .clockwise90)
        #expect(p.width == 2 && p.height == 3)
        #expect([p[0, 0], p[1, 0], p[0, 1], p[1, 1], p[0, 2], p[1, 2]] == [10, 0, 11, 1, 12, 2])
    }

    @Test func halfTurnAndCounterClockwise() {
        let h = RemoteServer.panelImage(canvas(), rotation: .upsideDown)
        #expect([h[0, 0], h[1, 0], h[2, 0], h[0, 1], h[1, 1], h[2, 1]] == [12, 11, 10, 2, 1, 0])
        let q = RemoteServer.panelImage(canvas(), rotation: .clockwise270)
        #expect(q.width == 2 && q.height == 3)
        #expect([q[0, 0], q[1, 0], q[0, 1], q[1, 1], q[0, 2], q[1, 2]] == [2, 12, 1, 11, 0, 10])
    }
}

/// Screenshots (a copy of the screen and its PNG, held until the client has read them) are
/// admitted a few at a time.
@Suite struct AdmissionTests {
    @Test func placesAreTakenAndGivenBack() {
        let counter = AdmissionCounter(limit: 4)
        var held = (0..<4).compactMap { _ in counter.admit() }
        #expect(held.count == 4 && counter.current == 4)
        #expect(counter.admit() == nil)
        held.removeLast()
        #expect(counter.current == 3)
        let again = counter.admit()
        #expect(again != nil && counter.current == 4)
        held.removeAll()
        _ = again
    }
}
