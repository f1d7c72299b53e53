#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import TestSupport
import Testing

/// A board config's mistakes stop `glide board` before it takes the display, naming the line:
/// found later, they leave the screen dark after the display was taken, or pass unnoticed.
@Suite struct StartupErrorTests {
    static let glide = glideBinary

    /// `glide board --config` with `lines` after a card no machine has (so that reaching the
    /// display fails at once, with its own message); returns the exit status and standard error.
    func board(_ lines: String, name: String) throws -> (status: Int32, stderr: String) {
        let conf = "/tmp/glide-e2e-\(getpid())-\(name).conf"
        try FileIO.writeAll(Array("app = catalog\ncard = /dev/dri/card97\ndisplay_wait_seconds = 0\n\(lines)".utf8), path: conf)
        defer { _ = unlink(conf) }
        let r = shell("\(Self.glide) board --config \(conf) < /dev/null", name: name)
        return (r.status, r.stderr.replacing(conf, with: "CONF"))
    }

    /// Before: the display was opened first (here: its error was the one reported), and on a
    /// board the bad item was reported only after the screen had been taken.
    @Test func aBadKeypadItemIsReportedBeforeTheDisplay() throws {
        try #require(access(Self.glide, X_OK) == 0, "build the glide binary first (swift build --product glide)")
        let r = try board("keypad = next:KP6 louder:KP9\n", name: "keypad")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("CONF:4: keypad item 'louder:KP9' is not ACTION:KEY"), "\(r.stderr)")
        #expect(!r.stderr.contains("card97"), "\(r.stderr)")
    }

    /// Before: espeak-ng fell back to English without a word.
    @Test func aMissingVoiceIsReportedBeforeTheDisplay() throws {
        try #require(access(Self.glide, X_OK) == 0, "build the glide binary first (swift build --product glide)")
        let r = try board("speech_voice = xx-nosuch\n", name: "voice")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("CONF:4: speech_voice 'xx-nosuch' is not a voice espeak-ng has"), "\(r.stderr)")
        #expect(!r.stderr.contains("card97"), "\(r.stderr)")
        // A voice it has goes on to the display.
        let de = try board("speech_voice = de\n", name: "voice-de")
        #expect(de.status == 1 && de.stderr.contains("card97") && !de.stderr.contains("speech_voice"), "\(de.stderr)")
    }
}
