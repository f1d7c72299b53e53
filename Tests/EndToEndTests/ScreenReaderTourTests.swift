#if canImport(Glibc)
import Glibc
#endif
import Catalog
import FoundationEssentials
import Geometry
import Headless
import ImageCodecs
import Runtime
import Speech
import TestSupport
import Testing
import UI

/// The catalog through the screen reader, headless: what is said,
/// in order and at what time, against a golden, and the WAV checked to be speech.
@Suite struct ScreenReaderTourTests {
    @Test func catalogTourIsSaid() throws {
        let catalog = try makeCatalog()
        let w = catalog.window
        let dir = "/tmp/glide-screen-reader-tour-\(getpid())"
        try FileIO.makeDirectory(dir)
        let speech = try SpeechRecorder(directory: dir)
        w.speech = speech
        w.isScreenReaderEnabled = true
        func center(_ id: String) -> Point {
            let f = w.state(at: 0, frameNumber: 0).elements.first { $0.id == id }!.frame
            return Point(x: f[0] + f[2] / 2, y: f[1] + f[3] / 2)
        }
        var s = Script()
        s.wait(100); s.tap(center("tab-feed"))  // said after the double-tap wait
        s.wait(600); s.tap(Point(x: 600, y: 400)); s.tap(Point(x: 600, y: 400))  // double tap: the Feed tab
        s.wait(500)
        // One finger explores down the feed (a drag slower than a swipe: 500 points in 0.8 s; a
        // swipe is over within 0.4 s).
        s.drag(Point(x: 600, y: 650), Point(x: 600, y: 150), ms: 800)
        s.wait(600)
        for id in 0..<3 { s.touch("down", Point(x: 500 + Double(id) * 80, y: 500), id: id) }
        s.wait(40)
        for id in 0..<3 { s.touch("move", Point(x: 500 + Double(id) * 80, y: 380), id: id) }
        s.wait(40)
        for id in 0..<3 { s.up(Point(x: 500 + Double(id) * 80, y: 380), id: id) }  // three fingers: a page down
        s.wait(1500); s.tap(center("tab-article-ja"))  // the Japanese article's tab, in Japanese
        s.wait(600); s.state("end")
        let result = try run(s, app: catalog)
        try speech.finish()
        let track = try #require(SpeechTrack.read(path: dir + "/speech.wav")).samples
        let said = speech.utterances
        let lines = said.map { "\(Int(($0.t * 1000).rounded())) \($0.lang) \($0.text)" }.joined(separator: "\n") + "\n"
        let golden = testsDirectory + "/Golden/Speech/catalog-tour.txt"
        if isUpdatingGoldens { try FileIO.writeAll(Array(lines.utf8), path: golden) }
        let expected = String(decoding: try FileIO.readAll(path: golden), as: UTF8.self)
        #expect(lines == expected, "utterances differ from \(golden):\n\(lines)")
        #expect(said.contains { $0.lang == "ja" && $0.text.hasPrefix("読みもの") })
        #expect(said.contains { $0.text.hasPrefix("Rows ") })
        // Real speech: the track starts with the first utterance (its pauses are all shorter
        // than the longest silence kept, so each starts at its time from the first), and there
        // is sound in every utterance that had a third of a second before the next cut it (a
        // finger exploring fast cuts each short, as a person hears it). Length in proportion to
        // the text: SpeechTests.
        let rate = speech.sampleRate
        #expect(track.prefix(rate / 3).contains { abs(Int($0)) > 1000 })
        func frame(_ t: Double) -> Int { Int((t - said[0].t) * Double(rate)) }
        for (i, u) in said.enumerated() {
            let start = frame(u.t), end = i + 1 < said.count ? frame(said[i + 1].t) : track.count
            guard end - start > rate / 3 else { continue }
            let loud = track[start..<min(end, track.count)].filter { abs(Int($0)) > 1000 }.count
            #expect(loud > rate / 20, "utterance \(i) '\(u.text)' is silent")
        }
        // The last one, not cut, ends the track: it lasts as long as its text takes to say.
        let last = try #require(said.last)
        #expect(Double(track.count) / Double(rate) - (last.t - said[0].t) > 1)
        let state = try #require(result.states["end"])
        #expect(state.screenReader && state.utterances.last?.text == last.text)
        #expect(state.accessibility.contains { $0.role == "list row" && $0.label == "読みもの, 日本語の長い記事" })
    }
}
