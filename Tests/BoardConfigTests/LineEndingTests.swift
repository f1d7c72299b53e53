import BoardConfig
import Geometry
import Testing

/// Every line-based format reads its lines through `textLines` (LF, CRLF or CR), and every
/// message echoes input through `excerpt`: a Windows file is read as its author meant, and
/// nothing a file holds, secrets least of all, spills into a message.
@Suite struct LineEndingTests {
    @Test func linesSplitAtEveryConvention() {
        #expect(textLines("a\nb\r\nc\rd").map(String.init) == ["a", "b", "c", "d"])
        #expect(textLines("a\r\n\r\nb\r\n").map(String.init) == ["a", "", "b", ""])
        #expect(textLines("").map(String.init) == [""])
        #expect(textLines("\r").map(String.init) == ["", ""])
        #expect(textLines("é\r\n日本\n").map(String.init) == ["é", "日本", ""])
        #expect(lineBreak(of: "a = 1\r\nb = 2\r\n") == "\r\n")
        #expect(lineBreak(of: "a = 1\nb = 2") == "\n")
        #expect(lineBreak(of: "one line") == "\n")
    }

    @Test func echoesAreShortAndInert() {
        let long = String(repeating: "x", count: 1_000_000)
        #expect(excerpt(long) == String(repeating: "x", count: 60) + "… (1000000 bytes)")
        // One letter under 100,000 accents is a single Character: cut by scalars, not characters.
        let marks = "a" + String(repeating: "\u{301}", count: 100_000)
        #expect(excerpt(marks).unicodeScalars.count < 100)
        #expect(excerpt("a\r\nb\u{1B}[2Jc\t") == "a\\r\\nb\\u{1B}[2Jc\\t")
        #expect(excerpt("short") == "short")
    }

    @Test func aWindowsConfigReadsAsWritten() throws {
        let c = try BoardConfig(parsing: "# kiosk\r\nrotation = 90\r\nscale = 2\r\nremote_token = abcdefgh1234\r\n")
        #expect(c.rotation == 90)
        #expect(c.scale == 2)
        #expect(c.remoteToken == "abcdefgh1234")
        // A bad value on the first line is that line's error, not a key that swallowed the file.
        #expect(
            throws: BoardConfigError.badValue(
                source: "config", line: 1, key: "rotation", value: "91",
                expected: "0, 90, 180 or 270")
        ) {
            try BoardConfig(parsing: "rotation = 91\r\nremote_token = s3cr3t-t0ken\r\n")
        }
        #expect(throws: BoardConfigError.self) { try BoardConfig(parsing: "calibration = 1 0 0 2 0 0\r\nscale = 1\r\n") }
        // Old Macintosh line ends too.
        #expect(try BoardConfig(parsing: "rotation = 180\rscale = 1.5\r").scale == 1.5)
    }

    @Test func aTokenIsNeverRepeated() {
        for text in ["remote_token = short", "remote_token = \"            \"", "scale = 1\r\nremote_token = ab cd ef gh\r\n"] {
            do {
                _ = try BoardConfig(parsing: text)
                Issue.record("accepted \(text)")
            } catch {
                let message = "\(error)"
                #expect(message.contains("hidden"))
                #expect(!message.contains("short") && !message.contains("ab cd"))
            }
        }
    }

    @Test func calibrateKeepsTheFilesLineBreaks() throws {
        let text = "mode = 800x480\r\nrotation = 90\r\n"
        #expect(
            try ConfigFile.setting("calibration", to: "1 0 0 0 1 0", in: text)
                == "mode = 800x480\r\nrotation = 90\r\ncalibration = 1 0 0 0 1 0\r\n")
        #expect(try ConfigFile.setting("rotation", to: "180", in: text) == "mode = 800x480\r\nrotation = 180\r\n")
    }

    @Test func idleBlankingHasASaneMinimum() throws {
        #expect(try BoardConfig(parsing: "idle_blank_seconds = 0").idleBlankSeconds == 0)
        #expect(try BoardConfig(parsing: "idle_blank_seconds = 5").idleBlankSeconds == 5)
        for v in ["1e-300", "0.001", "4.9", "-1"] {
            #expect(throws: BoardConfigError.self) { try BoardConfig(parsing: "idle_blank_seconds = \(v)") }
        }
    }
}
