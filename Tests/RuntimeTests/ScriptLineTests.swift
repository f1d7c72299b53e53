import Runtime
import Testing

/// Scripts (and `/events` bodies, which are scripts) saved with Windows line ends.
@Suite struct ScriptLineTests {
    @Test func aCRLFScriptIsTheSameScript() throws {
        let lines = [#"{"t":0,"touch":"down","id":0,"x":10,"y":20}"#, #"{"t":16,"touch":"move","id":0,"x":10,"y":60}"#,
                     #"{"t":32,"touch":"up","id":0}"#, #"{"t":40,"key":"PageDown"}"#, ""]
        let unix = try InputScript.parse(lines.joined(separator: "\n"))
        let windows = try InputScript.parse(lines.joined(separator: "\r\n"))
        #expect(unix.entries.count == 4)
        #expect(windows.entries.count == unix.entries.count)
        #expect("\(windows.entries)" == "\(unix.entries)")
        // Errors still name the right line.
        do {
            _ = try InputScript.parse("{\"t\":0,\"key\":\"Up\"}\r\n{\"t\":1,\"key\":\"Nope\"}\r\n")
            Issue.record("accepted an unknown key")
        } catch {
            #expect(error.line == 2)
        }
    }
}

@Suite struct ScriptNameTests {
    @Test func namesAreLimitedInBytes() throws {
        // 100 characters of 4 bytes each passed a check in characters and failed with
        // ENAMETOOLONG after other files were written.
        let wide = String(repeating: "日", count: 100)
        #expect(throws: InputScript.ParseError.self) { try InputScript.parse("{\"t\":0,\"screenshot\":\"\(wide)\"}") }
        let fits = String(repeating: "日", count: 66)
        #expect(try InputScript.parse("{\"t\":0,\"state\":\"\(fits)\"}").entries.count == 1)
    }
}
