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
        let d = try RemoteConfiguration.parse(address: "0.0.0.0:8080", token: "s3cret")
        #expect(!d.isLoopback && d.token == "s3cret")
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
}
