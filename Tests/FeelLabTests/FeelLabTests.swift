import Testing
import TestSupport
import Scrolling
import Geometry
@testable import FeelLab

@Suite struct TouchTraceParsingTests {
    @Test func acceptsHeaderCommentsAndBlankLines() throws {
        let text = """
            # a flick
            t_ms,phase,id,x,y

            0,down,0,400,600
            16,move,0,400,560
            32,up,0,,
            """
        let samples = try TouchTrace.parse(text)
        #expect(samples.count == 3)
        #expect(samples[2].phase == .up && samples[2].line == 6)
        // The same file saved on Windows gives the same samples (it used to give none).
        let windows = try TouchTrace.parse(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n"))
        #expect(windows.map(\.phase) == samples.map(\.phase) && windows.map(\.line) == samples.map(\.line))
    }

    @Test(arguments: [
        ("0,down,0,1,2\n10,move,0,3", 2, "needs x and y"),
        ("0,down,0,1,2\n10,wiggle,0,3,4", 2, "unknown phase"),
        ("0,down,0,1,2\n10,move,0,nan,4", 2, "must be finite"),
        ("0,down,0,1,2\n10,move,0,abc,4", 2, "not a number"),
        ("10,down,0,1,2\n5,move,0,3,4", 2, "backwards"),
        ("0,up,0,1,2", 1, "without a down"),
        ("0,down,0,1,2\n1,down,0,1,2", 2, "already down"),
        ("0,move,3,1,2", 1, "not down"),
        ("0,down", 1, "column"),
        ("0,down,x,1,2", 1, "not an integer"),
    ])
    func rejectsBadLinesNamingThem(text: String, line: Int, fragment: String) {
        do {
            _ = try TouchTrace.parse(text)
            Issue.record("accepted bad input: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.description.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("line \(line):"))
        }
    }

    @Test func fuzzedInputNeverCrashes() {
        var rng = SeededGenerator(seed: 7)
        let pieces = ["0", "16", "-3", "1e400", "nan", "down", "move", "up", "cancel", ",", ",", "\n", "#", "x", " ", "999999999999"]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 40) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            if let samples = try? TouchTrace.parse(text) {
                _ = FeelLab.trace(
                    samples, viewport: .init(800, 800), content: .init(800, 4000), offset: .zero,
                    configuration: .init(), hz: 60)
            }
        }
    }
}

@Suite struct FeelOutputTests {
    @Test func releaseTabulatesUntilRestAtTheProjection() {
        let csv = FeelLab.release(
            viewport: 800, content: 5000, offset: 1000, velocity: 2000,
            configuration: ScrollConfiguration(), hz: 60)
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows[0] == ["t_ms", "offset", "velocity"])
        #expect(rows[1] == ["0.000", "1000.000", "2000.000"])
        #expect(rows[2][0] == "16.667")
        let last = rows[rows.count - 1]
        #expect(last[1] == "1999.000" && last[2] == "0.000")
        // Every row but the last is still moving.
        #expect(rows.dropFirst().dropLast().allSatisfy { $0[2] != "0.000" })
    }

    @Test func velocityReportsEachLift() throws {
        let samples = try TouchTrace.parse(
            """
            0,down,0,100,0
            10,move,0,100,10
            20,move,0,100,30
            20,up,0,0,0
            30,down,1,5,5
            100,up,1,5,5
            """)
        #expect(FeelLab.velocities(samples) == "t_ms,id,vx,vy\n20.000,0,0.000,2500.000\n100.000,1,0.000,0.000\n")
    }

    @Test func traceRowsFollowTheSamplesAndEveryFrame() throws {
        let samples = try TouchTrace.parse("0,down,0,400,600\n16,move,0,400,560\n32,move,0,400,520\n48,move,0,400,480\n50,up,0")
        let csv = FeelLab.trace(
            samples, viewport: .init(800, 800), content: .init(800, 4000), offset: .zero,
            configuration: .init(), hz: 60)
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows[0] == ["t_ms", "offset_x", "offset_y", "scale", "velocity_x", "velocity_y", "phase"])
        // Samples and the 60 Hz frames between them, in time order; the frame at 50 ms is the
        // up's row.
        #expect(
            rows.dropFirst().prefix(8).map { $0[0] } == ["0.000", "16.000", "16.667", "32.000", "33.333", "48.000", "50.000", "66.667"])
        #expect(rows[1][6] == "touching")
        #expect(rows[2][6] == "dragging" && rows[2][2] == "32.000")
        #expect(rows[3][2] == "32.000")  // a frame between samples, not resampled: the newest
        #expect(rows[7][6] == "decelerating")
        #expect(rows.last?[6] == "idle")
    }

    /// Resampled, the frame rows draw the finger 5 ms behind the frame, interpolated.
    @Test func traceFrameRowsShowTheResampledFinger() throws {
        let samples = try TouchTrace.parse("0,down,0,400,600\n10,move,0,400,580\n20,move,0,400,560\n30,move,0,400,540\n40,up,0")
        var c = ScrollConfiguration()
        c.touchResampling = TouchResampling()
        let csv = FeelLab.trace(
            samples, viewport: .init(800, 800), content: .init(800, 4000), offset: .zero,
            configuration: c, hz: 60)
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows[2][0] == "10.000" && rows[2][2] == "0.000")  // the drag begins at the slop circle
        // 16.667 ms: only the 10 ms sample is known, and nothing to predict from: 580, 12 pt
        // past the slop circle (592).
        #expect(rows[3][0] == "16.667" && rows[3][2] == "12.000")
        // 20 ms: the finger at 15 ms, halfway from 580 to 560.
        #expect(rows[4][0] == "20.000" && rows[4][2] == "22.000")
        // 33.333 ms: 28.333 ms lies between 20 ms and 30 ms: 543.333, moved 48.667.
        #expect(rows[6][0] == "33.333" && rows[6][2] == "48.667")
    }

    @Test func fixedFormatting() {
        #expect(fixed(1.23456, 3) == "1.235")
        #expect(fixed(-0.0004, 3) == "0.000")
        #expect(fixed(-2.5, 1) == "-2.5")
        #expect(fixed(16.666666, 3) == "16.667")
        #expect(fixed(.nan, 2) == "nan")
    }

    @Test func parsesOptions() {
        #expect(FeelLab.decelerationRate("fast") == 0.99)
        #expect(FeelLab.decelerationRate("0.995") == 0.995)
        #expect(FeelLab.decelerationRate("1.5") == nil)
        #expect(FeelLab.size("1280x800") == .init(1280, 800))
        #expect(FeelLab.size("1280x") == nil)
        #expect(FeelLab.point("3,-4") == .init(3, -4))
    }
}

/// Found by the fuzzer (Tests/Fuzz): a trace whose last sample came 1e9 ms after its first
/// tabulated a row per frame in between (60 million rows, minutes of work).
@Suite struct FuzzFoundTraceTests {
    @Test func aTraceLongerThanTenMinutesIsRefusedWithItsLine() {
        let csv = "t_ms,phase,id,x,y\n0,down,0,100,400\n16,move,0,100,300\n600017,up,0\n"
        #expect(throws: FeelInputError(line: 4, "the trace spans more than 600000 ms (10 minutes)")) {
            try TouchTrace.parse(csv)
        }
        #expect((try? TouchTrace.parse("0,down,0,1,1\n600000,up,0\n"))?.count == 2)
    }

    @Test func aLongBadFieldIsCutInTheMessage() {
        let csv = "0,down,0,1,\(String(repeating: "9x", count: 50_000))\n"
        do {
            _ = try TouchTrace.parse(csv)
            Issue.record("accepted a bad y")
        } catch {
            #expect(error.description.count < 200 && error.description.contains("(100000 bytes)"))
        }
    }
}
