#if canImport(Glibc)
import Glibc
#endif
import AppContract
import ArgumentParser
import BoardConfig
import Headless
import Runtime
import TestSupport
import Testing
import Text
import UI
@testable import KioskRuntime
import Geometry
import ImageCodecs
import Raster
import RemoteControl
import ViewCore
import TouchCalibration

/// The runtime an app executable shares with `glide`: option checking, a builder that throws,
/// and a headless run with its outputs.
@Suite struct KioskRuntimeTests {
    struct Broken: Error, CustomStringConvertible { var description: String { "no timetable file" } }

    @Test func aBuilderThatThrowsEndsWithAClearMessage() throws {
        let options = try HeadlessOptions.parse(["--size", "800x480", "--out", "/tmp/glide-kiosk-never"])
        var built = false
        let source = AppSource { _, _, _, _, _ in
            built = true; throw Broken()
        }
        #expect { try HeadlessRuntime.run(options, app: source) } throws: { error in
            "\(error)" == "the app could not start: no timetable file"
        }
        #expect(built)
    }

    @Test func badOptionsAreRefusedBeforeTheAppIsBuilt() throws {
        var built = false
        let source = AppSource { _, _, _, _, _ in
            built = true; throw Broken()
        }
        for args in [
            ["--size", "10x10"], ["--size", "800x480", "--scale", "nan"], ["--hz", "0"], ["--backend", "drm"],
            ["--scale", "1e9"],
        ] {
            let options = try HeadlessOptions.parse(args)
            #expect(throws: ValidationError.self, "\(args)") { try HeadlessRuntime.run(options, app: source) }
        }
        #expect(!built)
        #expect(throws: (any Error).self) { try BoardOptions.parse(["--scale", "0"]).mergedConfig(apps: nil) }
        #expect(throws: (any Error).self) { try BoardOptions.parse(["--rotation", "45"]).mergedConfig(apps: nil) }
        let merged = try BoardOptions.parse(["--rotation", "90", "--scale", "2", "--mode", "800x480@60"]).mergedConfig(apps: nil)
        #expect(merged.rotation == 90 && merged.scale == 2 && merged.mode == BoardConfig.Mode(width: 800, height: 480, refreshHz: 60))
    }

    @Test func aHeadlessRunWritesItsScreenshotsStatesAndFinalFrame() throws {
        let dir = "/tmp/glide-kiosk-\(monotonicSeconds())"
        let typography = try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
        var size: (Int, Int, Double)?
        let source = AppSource { w, h, scale, headless, _ in
            #expect(headless)
            size = (w, h, scale)
            let label = Label("0", id: "ticks", size: 30)
            let window = Window(width: w, height: h, scaleFactor: scale, typography: typography, root: label)
            var n = 0
            window.every(1) {
                n += 1; label.text = "\(n)"
            }
            return window
        }
        // What a run killed between a write and its rename left, in the old naming and the new.
        mkdir(dir, 0o755)
        let leftovers = ["final.png.tmp-\(getpid())", ".two.json.tmp-\(getpid())-9e3779b97f4a7c15"]
        for name in leftovers { try writeText("half", to: "\(dir)/\(name)") }
        let summary = try HeadlessRuntime.runVirtual(
            try source.build(320, 200, 1.5, true, BoardConfig()), width: 320, height: 200,
            script: try InputScript.parse("{\"t\":2000,\"screenshot\":\"two\"}\n{\"t\":2000,\"state\":\"two\"}"),
            hz: 60, out: dir, timing: false)
        #expect(size! == (320, 200, 1.5))
        // Drawn: the first frame and those around the two ticks; the idle frames between are
        // skipped (they would all show the same number).
        #expect(summary.hasPrefix("7 frames, 2.000 s of virtual time; wrote 1 screenshots, 1 states"), "\(summary)")
        for file in ["two.png", "two.json", "final.png", "final.json"] {
            #expect((try? readText("\(dir)/\(file)")) != nil, "\(file) written")
        }
        for name in leftovers { #expect(access("\(dir)/\(name)", F_OK) != 0, "\(name) removed") }
    }

    /// A board that lost power while recording (`--record`) leaves a last line cut short: the
    /// lines before it are replayed (before: exit 2 and nothing ran). A bad line in the middle
    /// is still an error.
    @Test func aRecordingCutMidLineIsReplayedUpToTheCut() throws {
        let path = "/tmp/glide-cut-\(getpid()).jsonl"
        defer { unlink(path) }
        let whole = #"{"t":0,"touch":"down","id":0,"x":10,"y":10}"# + "\n" + #"{"t":16,"touch":"up","id":0}"# + "\n"
        for cut in [#"{"t":33,"touch":"down","id":0,"x":1"#, #"{"t":33,"wheel":{"dx":0,"dy":-120}"#, "\0\0\0\0"] {
            try writeText(whole + cut, to: path)
            let script = try HeadlessOptions.parse(["--script", path]).parsedScript()
            #expect(script.entries.map(\.line) == [1, 2], "\(cut)")
        }
        // Cut inside a character of typed text: the whole lines are still UTF-8.
        let fd = open(path, O_WRONLY | O_TRUNC)
        for bytes in [Array((whole + #"{"t":40,"type":"Gr"#).utf8), [0xC3]] { _ = write(fd, bytes, bytes.count) }
        close(fd)
        #expect(try HeadlessOptions.parse(["--script", path]).parsedScript().entries.count == 2)
        for bad in [
            #"{"t":16,"touch":"up""# + "\n" + #"{"t":33,"key":"Enter"}"#,  // cut in the middle
            #"{"t":33,"key":"Nope"}"#,  // whole but wrong, even without its line break
        ] {
            try writeText(whole + bad, to: path)
            #expect(throws: ExitCode.self, "\(bad)") { try HeadlessOptions.parse(["--script", path]).parsedScript() }
        }
    }
}

/// Config errors found after parsing name the file and line of the key they come from.
@Suite struct ConfigPlaceTests {
    @Test func remoteAddressErrorsNameFileAndLine() throws {
        for (text, fragment) in [
            ("# board\nmode = 800x480\nremote_address = 0.0.0.0:8377\n", "token"),
            ("\n\nremote_address = a:b:8377\n", "a:b:8377"),
        ] {
            let cfg = try BoardConfig(parsing: text, source: "/etc/glide/board.conf")
            #expect {
                _ = try RemoteOptions.parse([]).configuration(config: cfg)
            } throws: { error in
                let message = "\(error)"
                return message.contains("/etc/glide/board.conf:3: remote_address") && message.contains(fragment)
            }
        }
    }
}

/// The TLS files come from the flags or the config, both or neither, and need `--remote`.
@Suite struct RemoteTLSOptionTests {
    @Test func certificateAndKeyComeTogether() throws {
        #expect {
            _ = try RemoteOptions.parse(["--remote", "127.0.0.1:0", "--remote-tls-certificate", "/c.pem"]).configuration()
        } throws: {
            "\($0)".contains("give both --remote-tls-certificate and --remote-tls-key")
        }
        #expect { _ = try RemoteOptions.parse(["--remote-client-ca", "/ca.pem"]).configuration() } throws: {
            "\($0)".contains("need --remote HOST:PORT")
        }
        let cfg = try BoardConfig(parsing: "remote_address = 127.0.0.1:8377\nremote_tls_certificate = /c.pem\nremote_tls_key = /k.pem\n")
        let fromConfig = try #require(try RemoteOptions.parse([]).configuration(config: cfg))
        #expect(fromConfig.tls == .files(certificate: "/c.pem", key: "/k.pem") && fromConfig.scheme == "https")
        // A flag wins over the config.
        let flagged = try #require(try RemoteOptions.parse(["--remote-tls-key", "/other.pem"]).configuration(config: cfg))
        #expect(flagged.tls == .files(certificate: "/c.pem", key: "/other.pem"))
    }
}

/// A FIFO or /dev/zero named as a script, trace, token file or board config is refused at once,
/// by path, instead of blocking `open` or reading until a limit.
@Suite struct SpecialFileTests {
    @Test func fifosAndDevicesAreRefusedForEveryTextInput() throws {
        try forEachSpecialFile { path in
            #expect { _ = try readText(path) } throws: { "\($0)".contains(path) && "\($0)".contains("not a regular file") }
            #expect { _ = try BoardConfig.load(path: path) } throws: { "\($0)".contains(path) && "\($0)".contains("not a regular file") }
        }
    }
}

/// Small things a fuzzer found.
@Suite struct HostileInputMessageTests {
    /// A megabyte of key name comes back as a short excerpt, not a megabyte of message.
    @Test func echoedInputIsCutToAnExcerpt() {
        let name = String(repeating: "K", count: 1 << 20)
        #expect { _ = try InputScript.parse("{\"t\":0,\"key\":\"\(name)\"}") } throws: { error in
            let message = "\(error)"
            return message.utf8.count < 1000 && message.contains("(1048576 bytes)")
        }
    }

    @Test func aGlideFontsWithoutTheFontsIsReported() throws {
        var warnings: [String] = []
        let places = FontSearchPlaces.forExecutable(sourcePath: #filePath, glideFonts: "/nonexistent/glide-fonts")
        let found = try FontLibrary.locateFontsDirectory(glideFonts: places.glideFonts, searchingUpFrom: places.startingPoints) {
            warnings.append($0)
        }
        #expect(!found.hasPrefix("/nonexistent"))
        #expect(
            warnings == ["$GLIDE_FONTS=/nonexistent/glide-fonts does not exist; looking for Glide's Fonts/ next to the executable instead"])
    }

    /// The test bundle lives under .build/ in the checkout, so walking up from it finds the same
    /// Fonts/ as walking up from this source file (unless GLIDE_FONTS is set).
    @Test func locatesFontsFromTheTestExecutable() throws {
        guard getenv("GLIDE_FONTS") == nil else { return }
        #expect(try Kiosk.fontsDirectory() == (try FontLibrary.locateFontsDirectory(near: #filePath)))
    }
}

/// The calibration screen headless, from an input script: five taps through a skewed sensor,
/// the outcome given once, the loop told to end after the result has shown.
@Suite struct CalibrationScreenTests {
    static func typography() throws -> Typography { try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath)) }

    /// A tap in the script at `p` at `ms`.
    static func tap(_ p: Point, _ ms: Int) -> String {
        "{\"t\":\(ms),\"touch\":\"down\",\"id\":0,\"x\":\(p.x),\"y\":\(p.y)}\n{\"t\":\(ms + 60),\"touch\":\"up\",\"id\":0}\n"
    }

    @Test func fiveSkewedTapsAreFittedAndShown() throws {
        let screen = CalibrationScreen(width: 800, height: 480, scaleFactor: 1, typography: try Self.typography())
        var outcomes: [CalibrationSession.Outcome] = [], done = 0
        screen.onOutcome = {
            outcomes.append($0); return "Saved in /etc/glide/board.conf."
        }
        screen.onDone = { done += 1 }
        var script = ""
        for (i, t) in screen.session.targets.enumerated() {
            script += Self.tap(Point(x: 0.9 * t.x + 0.05 * t.y + 30, y: -0.04 * t.x + 0.92 * t.y + 25), 500 + 700 * i)
            if i == 1 { script += "{\"t\":\(700 * i + 900),\"screenshot\":\"third\"}\n" }
        }
        script += "{\"t\":3500,\"screenshot\":\"result\"}\n{\"t\":8000,\"state\":\"end\"}\n"
        let runner = HeadlessRunner(app: screen, width: 800, height: 480)
        let out = try runner.run(try InputScript.parse(script))
        #expect(outcomes.count == 1 && done == 1)
        guard case let .fitted(fit)? = outcomes.first else { Issue.record("\(outcomes)"); return }
        #expect(fit.rmsError < 1e-6)
        #expect(out.finalState.contains("\"outcome\":\"fitted\""), "\(out.finalState)")
        #expect(out.finalState.contains("\"matrix\":\"\(fit.matrix.configValue)\""))
        let third = try #require(out.screenshots.first { $0.name == "third" }?.image)
        let result = try #require(out.screenshots.first { $0.name == "result" }?.image)
        // The third cross is drawn (white at its centre), the first two are marked done (green).
        let t = screen.session.targets
        #expect(third[Int(t[2].x), Int(t[2].y)] == 0xFFFF_FFFF)
        #expect(third[Int(t[0].x), Int(t[0].y)] == 0xFF30_D158)
        #expect(result[Int(t[4].x), Int(t[4].y)] == 0xFF30_D158)
        assertGolden(third, suite: "Calibration", name: "third-cross-800x480")
        assertGolden(result, suite: "Calibration", name: "result-800x480")
    }

    @Test func noTouchForTheTimeoutCancels() throws {
        let screen = CalibrationScreen(width: 480, height: 800, scaleFactor: 1.5, typography: try Self.typography(), timeoutSeconds: 5)
        var outcomes: [CalibrationSession.Outcome] = [], done = 0
        screen.onOutcome = {
            outcomes.append($0); return ""
        }
        screen.onDone = { done += 1 }
        // A touch at 3 s puts the timeout off to 8 s; the screen then shows the result until 10.5 s.
        let script = Self.tap(Point(x: 60, y: 100), 3000) + "{\"t\":7500,\"state\":\"waiting\"}\n{\"t\":11000,\"state\":\"end\"}\n"
        let out = try HeadlessRunner(app: screen, width: 480, height: 800).run(try InputScript.parse(script))
        #expect(outcomes == [.cancelled("no touch for 5 s")] && done == 1)
        #expect(out.states.first { $0.name == "waiting" }?.json.contains("\"target\":1") == true, "\(out.states)")
    }
}

/// `--layout-direction` and `--keyboard-layout`: one option group on `run`, `board` and `demo`,
/// checked as it is parsed, reaching the board config.
@Suite struct LanguageOptionTests {
    @Test func badValuesAreRefusedAndGoodOnesReachTheConfig() throws {
        for args in [["--layout-direction", "sideways"], ["--keyboard-layout", "klingon"]] {
            #expect(throws: (any Error).self) { try HeadlessOptions.parse(args) }
            #expect(throws: (any Error).self) { try BoardOptions.parse(args) }
        }
        let cfg = try BoardOptions.parse(["--layout-direction", "rtl", "--keyboard-layout", "he"]).mergedConfig(apps: nil)
        #expect(cfg.layoutDirection == "rtl" && cfg.keyboardLayout == "he")
        let headless = try HeadlessOptions.parse(["--layout-direction", "auto"])
        #expect(headless.language.layoutDirection == "auto")
    }
}

/// Pictures named by a relative path are found in the config's assets folder first, and a
/// missing one names every path tried.
@Suite struct PictureFolderTests {
    @Test func relativePicturesComeFromTheAssetsFolderFirst() throws {
        let folder = try makeTemporaryFolder(prefix: "glide-assets")
        defer { unlink(folder + "/logo.png"); rmdir(folder) }
        let picture = PixelBuffer(width: 4, height: 2, fill: PremultipliedColor(rgb: 0x2A9D8F))
        try PNG.write(picture, to: folder + "/logo.png")
        let window = Window(
            width: 100, height: 100, typography: try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath)),
            root: View())
        readsPictureFiles(window, assets: folder)
        let decoder = try #require(window.images.reducingDecoder)
        #expect(try decoder("logo.png") { _, _ in 0 }.width == 4)
        #expect(pictureFolders(assets: folder).first == folder)
        do {
            _ = try decoder("missing.png") { _, _ in 0 }
            Issue.record("a missing picture was read")
        } catch {
            let folders = pictureFolders(assets: folder)
            #expect("\(error)" == "missing.png: no such picture (tried \(folders.map { $0 + "/missing.png" }.joined(separator: ", ")))")
            #expect(folders.count >= 2)  // the assets folder, then the executable's
        }
    }
}
