import Runtime
import Testing

/// Scripts (and `/events` bodies, which are scripts) saved with Windows line ends.
@Suite struct ScriptLineTests {
    @Test func aCRLFScriptIsTheSameScript() throws {
        let lines = [
            #"{"t":0,"touch":"down","id":0,"x":10,"y":20}"#, #"{"t":16,"touch":"move","id":0,"x":10,"y":60}"#,
            #"{"t":32,"touch":"up","id":0}"#, #"{"t":40,"key":"PageDown"}"#, "",
        ]
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

/// JSONDecoder keeps the last of two equal names: `{"t":0,"t":5000}` ran at 5 s.
@Suite struct DuplicateKeyTests {
    @Test func namesGivenTwiceAreFound() {
        #expect(JSONDuplicateKeys.first(in: Array(#"{"t":0,"t":5000}"#.utf8))! == ("t", 1))
        // Escapes name the same key.
        #expect(JSONDuplicateKeys.first(in: Array(#"{"t":0,"\u0074":1}"#.utf8))?.name == "t")
        // Each object has its own names; an array's strings and values are not names.
        #expect(JSONDuplicateKeys.first(in: Array(#"{"a":{"id":1},"b":{"id":2},"c":["id","id"],"d":"id"}"#.utf8)) == nil)
        #expect(
            JSONDuplicateKeys.first(in: Array("{\"a\":[{\"x\":1},{\"x\":2}],\n\"b\":{\"q\":\"}\\\"{\",\n\"q\":1,\"q\":2}}".utf8))! == (
                "q", 3
            ))
        #expect(JSONDuplicateKeys.first(in: Array(#"{"k":"a\"b","k2":1}"#.utf8)) == nil)
        #expect(JSONDuplicateKeys.first(in: Array(#"[1,"two",{"x":null}]"#.utf8)) == nil)
    }

    @Test func aScriptLineNamingAKeyTwiceIsRefused() {
        do {
            _ = try InputScript.parse("{\"t\":0,\"key\":\"Up\"}\n{\"t\":0,\"key\":\"Up\",\"t\":5000}\n")
            Issue.record("accepted t twice")
        } catch {
            #expect(error.line == 2 && error.message.contains("\"t\" is given twice"), "\(error)")
        }
    }
}

/// A recording a power cut stopped: its last line is cut short, maybe inside a character.
@Suite struct CutRecordingTests {
    let whole = #"{"t":0,"touch":"down","id":0,"x":10,"y":10}"# + "\r\n" + #"{"t":16,"touch":"up","id":0}"# + "\n"

    @Test func theWholeLinesAreReplayedAndTheCutOneNamed() throws {
        let (script, cut) = try InputScript.parse(recording: Array((whole + #"{"t":33,"touch":"do"#).utf8))
        #expect(script.entries.map(\.line) == [1, 2])
        #expect(cut?.line == 3)
        #expect("\(cut!)".hasPrefix("line 3: cut off: the file ends in the middle of this line (19 bytes"), "\(cut!)")
        // Cut inside a character: the bytes before the cut line are still UTF-8.
        let inCharacter = try InputScript.parse(recording: Array((whole + #"{"t":40,"type":"Gr"#).utf8) + [0xC3])
        #expect(inCharacter.script.entries.count == 2 && inCharacter.cut?.line == 3)
    }

    @Test func aWholeFileHasNoCut() throws {
        for tail in ["", #"{"t":40,"key":"Enter"}"#, "# the end", "  "] {
            let (script, cut) = try InputScript.parse(recording: Array((whole + tail).utf8))
            #expect(cut == nil, "\(tail)")
            #expect(script == (try InputScript.parse(whole + tail)), "\(tail)")
        }
    }

    @Test func aBadLineBeforeTheEndIsStillAnError() {
        #expect {
            try InputScript.parse(recording: Array("{\"t\":0,\"key\":\"Up\"}\n{\"t\":1,\"type\":\"".utf8) + [0xC3, 0x0A, 0x7B])
        } throws: {
            "\($0)" == "line 2: not UTF-8 text"
        }
        #expect(throws: InputScript.ParseError.self) {
            try InputScript.parse(recording: Array((#"{"t":0,"touch":"do"# + "\n" + whole).utf8))
        }
        // Whole but wrong, without its line break: written wrong, not cut.
        #expect(throws: InputScript.ParseError.self) { try InputScript.parse(recording: Array((whole + #"{"t":40,"key":"Nope"}"#).utf8)) }
    }
}
