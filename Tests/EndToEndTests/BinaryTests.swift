#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Geometry
import ImageCodecs
import Raster
import Runtime
import TestSupport
import Testing
import UI

/// The real `glide run --backend headless` binary, as a subprocess, and the script parser's
/// errors.
@Suite struct BinaryTests {
    static let glide = glideBinary

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    @Test func glideRunWritesWhatTheRunnerDraws() throws {
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        var s = Script()
        s.wait(50)
        s.drag(Point(x: 640, y: 600), Point(x: 640, y: 250), ms: 96)
        s.wait(300); s.shot("mid"); s.state("mid")
        let dir = "/tmp/glide-e2e-\(getpid())-run"
        let scriptPath = dir + ".jsonl"
        try FileIO.writeAll(Array(s.text.utf8), path: scriptPath)
        let r = shell(
            "GLIDE_CONTENT=\(repositoryRoot)/Board/content \(Self.glide) run --backend headless --size \(screenWidth)x\(screenHeight) --script \(scriptPath) --out \(dir)",
            name: "run")
        #expect(r.status == 0, "\(r.stderr)")
        for f in ["mid.png", "mid.json", "final.png", "final.json"] { #expect(exists("\(dir)/\(f)"), "\(f)") }
        let binaryFinal = try PNG.read(path: "\(dir)/final.png")
        let binaryMid = try PNG.read(path: "\(dir)/mid.png")
        let state = try decodeState(String(decoding: try FileIO.readAll(path: "\(dir)/final.json"), as: UTF8.self))
        // The same script in-process gives the same pixels and state.
        let inProcess = try run(s)
        #expect(compare(binaryFinal, try PNG.decode(PNG.encode(inProcess.output.finalScreenshot!))).mismatches == 0)
        #expect(compare(binaryMid, try PNG.decode(PNG.encode(inProcess.output.screenshots[0].image))).mismatches == 0)
        #expect(state == inProcess.final)
        #expect(state.scroll("feed")?.offset[1] ?? 0 > 300)
        #expect(state.scroll("feed")?.atRest == true)
        for f in ["mid.png", "mid.json", "final.png", "final.json"] { _ = unlink("\(dir)/\(f)") }
        _ = rmdir(dir); _ = unlink(scriptPath)
    }

    @Test func aMalformedLineIsNamedAndNothingIsWritten() throws {
        let text = """
            {"t":0,"touch":"down","id":0,"x":640,"y":600}
            {"t":16,"touch":"move","id":0,"x":640,"y":560}
            {"t":20,"touch":"move","id":0,"x":640,"y":}
            {"t":40,"screenshot":"never"}
            """
        #expect(throws: InputScript.ParseError.self) { try InputScript.parse(text) }
        do {
            _ = try InputScript.parse(text)
        } catch {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("line 3: "))
        }
        // Other kinds of bad lines, each named.
        let cases: [(String, Int, String)] = [
            ("{\"t\":0,\"key\":\"PageDown\"}\n{\"t\":-5,\"key\":\"Up\"}", 2, "\"t\""),
            ("{\"t\":10,\"key\":\"Up\"}\n\n{\"t\":5,\"key\":\"Up\"}", 3, "backwards"),
            ("{\"t\":0,\"key\":\"Hyper\"}", 1, "unknown key"),
            ("{\"t\":0,\"touch\":\"move\",\"id\":0,\"x\":1,\"y\":2}", 1, "not down"),
            ("{\"t\":0,\"touch\":\"down\",\"x\":1,\"y\":2}\n{\"t\":1,\"touch\":\"down\",\"x\":1,\"y\":2}", 2, "already down"),
            ("{\"t\":0,\"screenshot\":\"../etc/x\"}", 1, "plain file name"),
            ("{\"t\":0}", 1, "exactly one"),
            ("{\"t\":0,\"key\":\"Up\",\"state\":\"s\"}", 1, "exactly one"),
            ("{\"t\":0,\"touch\":\"down\"}", 1, "\"x\" and \"y\""),
            ("{\"t\":\"soon\",\"key\":\"Up\"}", 1, "not a JSON object"),
            (
                "# comment\n{\"t\":0,\"wheel\":{\"dx\":0,\"dy\":1},\"x\":1,\"y\":1}\n{\"t\":1,\"wheel\":{\"dx\":0,\"dy\":1e308},\"x\":1,\"y\":1}",
                3, "out of range"
            ),
        ]
        for (script, line, words) in cases {
            do {
                _ = try InputScript.parse(script)
                Issue.record("accepted: \(script)")
            } catch {
                #expect(error.line == line, "\(script)")
                #expect(error.message.contains(words), "\(error)")
            }
        }

        // The binary: exit status 2, the line named, no output folder.
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        let dir = "/tmp/glide-e2e-\(getpid())-bad"
        let scriptPath = dir + ".jsonl"
        try FileIO.writeAll(Array(text.utf8), path: scriptPath)
        let r = shell("\(Self.glide) run --backend headless --script \(scriptPath) --out \(dir)", name: "bad")
        #expect(r.status == 2)
        #expect(r.stderr.contains("line 3"), "\(r.stderr)")
        #expect(!exists(dir))
        _ = unlink(scriptPath)
    }

    /// Under systemd with standard error in the journal (JOURNAL_STREAM is its device:inode),
    /// each line carries its syslog priority; elsewhere the same lines are plain.
    @Test func linesCarryTheirPriorityOnlyWhenStandardErrorIsTheJournal() throws {
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        let log = "/tmp/glide-e2e-\(getpid())-journal.log"
        func run(_ args: String, journal: Bool) throws -> (status: Int32, lines: [String]) {
            let env = journal ? "JOURNAL_STREAM=$(stat -c %d:%i \(log))" : "JOURNAL_STREAM=1:1"
            let r = shell("(: > \(log); \(env) \(Self.glide) \(args) 2>> \(log); s=$?; cat \(log) >&2; exit $s)", name: "journal")
            return (r.status, r.stderr.split(separator: "\n").map(String.init))
        }
        // A script that is not there: the process's log at error, exit status 2.
        let missing = try run("run --backend headless --script /nonexistent/s.jsonl", journal: true)
        #expect(missing.status == 2)
        #expect(missing.lines.count == 1 && missing.lines[0].hasPrefix("<3>glide: /nonexistent/s.jsonl: "), "\(missing.lines)")
        let plain = try run("run --backend headless --script /nonexistent/s.jsonl", journal: false)
        #expect(plain.status == 2)
        #expect(plain.lines.count == 1 && plain.lines[0].hasPrefix("glide: /nonexistent/s.jsonl: "), "\(plain.lines)")
        // ArgumentParser's refusal and its usage lines: every line at error.
        let unknown = try run("run --bogus", journal: true)
        #expect(unknown.status == 64)
        #expect(unknown.lines.count > 1 && unknown.lines.allSatisfy { $0.hasPrefix("<3>") }, "\(unknown.lines)")
        #expect(unknown.lines.first?.contains("--bogus") == true)
        // Help is not an error: plain text on standard output.
        #expect(try run("run --help", journal: true).lines.isEmpty)
        _ = unlink(log)
    }

    /// A display card that is not there (one no machine has): `glide board` waits the configured
    /// time for it to appear, says so, then fails with the reason.
    @Test func theBoardWaitsForALateDisplayThenSaysWhy() throws {
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        let conf = "/tmp/glide-e2e-\(getpid())-wait.conf"
        try FileIO.writeAll(Array("app = catalog\ncard = /dev/dri/card97\ndisplay_wait_seconds = 1\n".utf8), path: conf)
        defer { _ = unlink(conf) }
        let start = monotonicSeconds()
        let r = shell("\(Self.glide) board --config \(conf) < /dev/null", name: "wait")
        let took = monotonicSeconds() - start
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("glide: waiting up to 1 s for the display: "), "\(r.stderr)")
        #expect(r.stderr.contains("/dev/dri/card97"), "\(r.stderr)")
        #expect(took >= 0.9, "gave up after \(took) s")
        // 0: no waiting.
        try FileIO.writeAll(Array("app = catalog\ncard = /dev/dri/card97\ndisplay_wait_seconds = 0\n".utf8), path: conf)
        let now = shell("\(Self.glide) board --config \(conf) < /dev/null", name: "wait0")
        #expect(now.status == 1 && !now.stderr.contains("waiting"), "\(now.stderr)")
    }

    /// An app built on `Kiosk.run` (ClockExample) has `calibrate` as glide does: its options, and
    /// a config it must not change refused before the display is taken, with nothing written.
    @Test func anAppOfItsOwnCalibratesLikeGlide() throws {
        let app = productsDirectory + "/ClockExample"
        try #require(exists(app), "build the examples first (swift build --build-tests)")
        let help = shell("(\(app) calibrate --help >&2)", name: "cal-help")
        #expect(help.status == 0 && help.stderr.contains("--max-error") && help.stderr.contains("--config"), "\(help.stderr)")
        let conf = "/tmp/glide-e2e-\(getpid())-ro.conf"
        let text = "rotation = 0\ncalibration = 1 0 0 0 1 0\n"
        try FileIO.writeAll(Array(text.utf8), path: conf, mode: 0o444)
        defer { _ = unlink(conf) }
        let r = shell("\(app) calibrate --config \(conf) < /dev/null", name: "cal-ro")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains("ClockExample: calibrate: cannot change \(conf)") && r.stderr.contains("nothing was written"), "\(r.stderr)")
        #expect(String(decoding: try FileIO.readAll(path: conf), as: UTF8.self) == text)
        #expect(!exists(conf + ".bak"))
    }

    /// Negative numbers after a space (issue 12): `--velocity -300`, `--offset -20`.
    @Test func feelReleaseTakesNegativeNumbersAfterASpace() throws {
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        let out = "/tmp/glide-e2e-\(getpid())-feel.csv"
        let spaced = shell(
            "(\(Self.glide) feel release --viewport 800 --content 5000 --offset 1000 --velocity -300 > \(out))", name: "feel")
        #expect(spaced.status == 0, "\(spaced.stderr)")
        let text = String(decoding: try FileIO.readAll(path: out), as: UTF8.self)
        let joined = shell(
            "(\(Self.glide) feel release --viewport 800 --content 5000 --offset=1000 --velocity=-300 > \(out).2)", name: "feel2")
        #expect(joined.status == 0)
        #expect(text == String(decoding: try FileIO.readAll(path: out + ".2"), as: UTF8.self))
        #expect(text.split(separator: "\n").count > 10)
        let trace = shell("\(Self.glide) feel release --viewport 800 --content 5000 --offset -20 --velocity 0", name: "feel3")
        #expect(trace.status == 0, "\(trace.stderr)")
        // feel trace: a negative X in the offset.
        let traced = shell(
            "(printf 't_ms,phase,id,x,y\\n0,down,0,400,500\\n16,move,0,400,450\\n32,up,0,400,450\\n' | \(Self.glide) feel trace --viewport 800x800 --content 800x5000 --offset -5,20 - > \(out))",
            name: "feel4")
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(String(decoding: try FileIO.readAll(path: out), as: UTF8.self).contains("0.000,0.000,20.000"))
        _ = unlink(out); _ = unlink(out + ".2")
    }

    /// The issue's reproduction of the paging reversal, through the command line: a drag forward
    /// on page 2 flicked back rests on page 2 (1600), not page 1 (800); `--resample off` and
    /// `--resample-latency` take effect, and bad values are refused.
    @Test func feelTraceOfAReversedPageFlickRestsOnTheStartPage() throws {
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        var rows = ["t_ms,phase,id,x,y", "0,down,0,400,500"]
        for i in 1...25 { rows.append("\(i * 16),move,0,400,\(500 - 160 * Double(i) / 25)") }
        for (i, y) in [355, 370, 385].enumerated() { rows.append("\(400 + 8 * (i + 1)),move,0,400,\(y)") }
        rows.append("432,up,0")
        let input = "/tmp/glide-e2e-\(getpid())-reversal.csv"
        try FileIO.writeAll(Array((rows.joined(separator: "\n") + "\n").utf8), path: input)
        let out = input + ".out"
        defer { _ = unlink(input); _ = unlink(out) }
        for options in ["", "--resample off", "--resample-latency 8"] {
            let r = shell(
                "(\(Self.glide) feel trace \(input) --viewport 800x800 --content 800x8000 --offset 0,1600 --paging \(options) > \(out))",
                name: "reversal")
            #expect(r.status == 0, "\(r.stderr)")
            let text = String(decoding: try FileIO.readAll(path: out), as: UTF8.self)
            let last = text.split(separator: "\n").last.map { $0.split(separator: ",").map(String.init) } ?? []
            #expect(last.count == 7 && last[2] == "1600.000" && last[6] == "idle", "\(options): \(last)")
        }
        for bad in ["--resample maybe", "--resample-latency -1", "--resample-latency nan"] {
            let r = shell("\(Self.glide) feel trace \(input) --viewport 800x800 --content 800x8000 \(bad)", name: "bad")
            #expect(r.status != 0 && !r.stderr.isEmpty, "\(bad)")
        }
    }

    /// `glide board snapshot` takes the scale limits of `run`: 0, NaN and 1e9 are refused.
    @Test func boardSnapshotRefusesAbsurdScales() throws {
        try #require(exists(Self.glide), "build the glide binary first (swift build --product glide)")
        for scale in ["0", "nan", "1e9"] {
            let r = shell("\(Self.glide) board snapshot --scale \(scale) --out /tmp/glide-e2e-\(getpid())-snap.png", name: "snap")
            #expect(r.status != 0 && r.stderr.contains("0.25...8"), "--scale \(scale): \(r.stderr)")
        }
    }
}
