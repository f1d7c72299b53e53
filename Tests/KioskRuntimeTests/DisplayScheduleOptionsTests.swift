#if canImport(Glibc)
import Glibc
#endif
import AppContract
import ArgumentParser
import BoardConfig
import Runtime
import TestSupport
import Testing
import Text
import UI
@testable import KioskRuntime

/// `--display-schedule`, `--display-wake-seconds` and `--start-time`: a headless run reads the
/// schedule on its virtual clock from the start time, and its states say what the display did.
@Suite struct DisplayScheduleOptionsTests {
    @Test func theOptionsAreCheckedAndMergedOverTheConfig() throws {
        for args in [
            ["--display-schedule", "Mon-Fry 07:00-22:00"], ["--display-wake-seconds", "1"], ["--start-time", "2026-12-07 06:59"],
        ] {
            #expect(throws: (any Error).self, "\(args)") { try HeadlessOptions.parse(args).geometry() }
        }
        #expect(
            throws: (any Error).self,
            performing: { try BoardOptions.parse(["--display-schedule", "Mon 07:00"]).mergedConfig(apps: nil) })
        let merged = try BoardOptions.parse(["--display-schedule", "daily 08:00-20:00", "--display-wake-seconds", "90"])
            .mergedConfig(apps: nil)
        #expect(merged.displaySchedule == (try DisplaySchedule(parsing: "daily 08:00-20:00")) && merged.displayWakeSeconds == 90)
        #expect(try HeadlessOptions.parse(["--start-time", "2026-12-07T06:59"]).startLocalSeconds() == 1_796_626_740)
    }

    @Test func aHeadlessRunTurnsTheDisplayOffAtTheEdgeAndATouchWakesIt() throws {
        let dir = "/tmp/glide-schedule-\(getpid())-\(Int(monotonicSeconds() * 1000))"
        let script = "\(dir).jsonl"
        defer {
            _ = unlink(script)
            for f in ["before", "after", "woken", "later", "final"] { _ = unlink("\(dir)/\(f).json"); _ = unlink("\(dir)/\(f).png") }
            _ = rmdir(dir)
        }
        try writeText(
            """
            {"t":59000,"state":"before"}
            {"t":61000,"state":"after"}
            {"t":90000,"touch":"down","id":0,"x":40,"y":40}
            {"t":90050,"touch":"up","id":0,"x":40,"y":40}
            {"t":91000,"state":"woken"}
            {"t":101000,"state":"later"}

            """, to: script)
        let typography = try Typography(fontsDirectory: FontLibrary.locateFontsDirectory(near: #filePath))
        var told: [Bool] = []
        let source = AppSource { w, h, scale, _, _ in
            let window = Window(width: w, height: h, scaleFactor: scale, typography: typography, root: Label("Open", id: "sign"))
            window.onDisplayPower = { told.append($0) }
            return window
        }
        let options = try HeadlessOptions.parse([
            "--size", "320x200", "--out", dir, "--script", script, "--display-schedule", "Mon-Fri 07:00-22:00; Sat 09:00-18:00",
            "--display-wake-seconds", "10", "--start-time", "2026-12-07T21:59",
        ])
        try HeadlessRuntime.run(options, app: source)
        func display(_ name: String) throws -> String {
            let json = try readText("\(dir)/\(name).json")
            let r = try #require(json.firstRange(of: "\"display\":{"))
            return String(json[r.lowerBound...].prefix { $0 != "}" }) + "}"
        }
        #expect(try display("before") == "\"display\":{\"on\":true,\"reason\":\"on\"}")
        #expect(try display("after") == "\"display\":{\"on\":false,\"reason\":\"schedule\"}")
        #expect(try display("woken") == "\"display\":{\"on\":true,\"reason\":\"woken\"}")
        #expect(try display("later") == "\"display\":{\"on\":false,\"reason\":\"schedule\"}")
        #expect(try display("final") == "\"display\":{\"on\":false,\"reason\":\"schedule\"}")
        #expect(told == [false, true, false])
    }
}
