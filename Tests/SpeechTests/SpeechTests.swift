import CSndFile
#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import Runtime
import Testing
@testable import Speech

/// Speech through espeak-ng (A11Y-2): real sound, in proportion to the text, cut by the next.
@Suite(.serialized) struct SpeechTests {
    static func rms(_ s: ArraySlice<Int16>) -> Double {
        guard !s.isEmpty else { return 0 }
        return (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }

    @Test func speechIsRealAndInProportionToTheText() throws {
        let e = try ESpeak()
        let short = e.synthesize("Search", language: "en", settings: VoiceSettings())
        let long = e.synthesize("Rows ten to eighteen of five hundred, scroll area", language: "en", settings: VoiceSettings())
        #expect(short.count > e.sampleRate / 5)  // more than 0.2 s
        #expect(long.count > 3 * short.count)
        #expect(Self.rms(long[...]) > 500)  // not silence
        let japanese = e.synthesize("東京駅", language: "ja", settings: VoiceSettings())
        #expect(japanese.count > e.sampleRate / 4 && Self.rms(japanese[...]) > 500)
        let fast = e.synthesize("Rows ten to eighteen of five hundred, scroll area", language: "en", settings: VoiceSettings(rate: 350))
        #expect(fast.count < long.count * 3 / 4)
    }

    /// The board's speaker through ALSA's null device: samples reach it, a newer utterance
    /// replaces the one playing.
    @Test func speakerPlaysThroughALSA() throws {
        let speaker = try SpeakerOutput(device: "null")
        speaker.speak(Utterance(t: 0, text: "Page three of seven", lang: "en"))
        var waited = 0
        while speaker.samplesWritten == 0 && waited < 200 { usleep(10_000); waited += 1 }
        #expect(speaker.samplesWritten > 0)
        speaker.speak(Utterance(t: 0.1, text: "東京", lang: "ja"))
        speaker.stop(at: 0.2)
        // A device that cannot be opened: said once, the speaker goes on silently.
        let missing = try SpeakerOutput(device: "no-such-device")
        missing.speak(Utterance(t: 0, text: "Hello", lang: "en"))
        waited = 0
        while missing.unavailableReason == nil && waited < 200 { usleep(10_000); waited += 1 }
        #expect(missing.unavailableReason?.contains("no-such-device") == true)
    }

    /// espeak-ng keeps one synthesizer per process: two recorders speaking at once take turns
    /// and both get real sound (the aarch64 suites, slower, once caught a tour and a test
    /// synthesizing at the same time and getting silence).
    @Test func twoRecordersAtOnceBothSpeak() throws {
        let dirs = (0..<2).map { "/tmp/glide-speech-pair-\(getpid())-\($0)" }
        for d in dirs { try FileIO.makeDirectory(d) }
        let recorders = try dirs.map { try SpeechRecorder(directory: $0) }
        for i in 0..<4 {
            for r in recorders { r.speak(Utterance(t: Double(i), text: "Row \(i + 1) of four, list row", lang: i == 3 ? "ja" : "en")) }
        }
        for r in recorders {
            let track = try r.finish()
            for i in 0..<4 {
                let start = i * r.sampleRate
                let piece = track[min(start, track.count)..<min(start + r.sampleRate, track.count)]
                #expect(piece.filter { abs(Int($0)) > 1000 }.count > r.sampleRate / 20, "utterance \(i) is silent")
            }
        }
    }

    @Test func recorderPlacesAndCutsUtterances() throws {
        let dir = "/tmp/glide-speech-test-\(getpid())"
        try FileIO.makeDirectory(dir)
        let r = try SpeechRecorder(directory: dir)
        r.speak(Utterance(t: 0.5, text: "Feed, button", lang: "en"))
        r.speak(Utterance(t: 0.8, text: "Photo, button, opens the picture", lang: "en"))  // interrupts the first
        r.speak(Utterance(t: 2.0, text: "読みもの", lang: "ja"))
        let track = try r.finish()
        let rate = r.sampleRate
        #expect(Self.rms(track[0..<(rate / 2)]) == 0)  // silence before the first
        #expect(Self.rms(track[(rate / 2)..<(rate * 8 / 10)]) > 300)  // the first, cut at 0.8 s
        #expect(track.count > rate * 2 + rate / 4)
        let lines = String(decoding: try FileIO.readAll(path: dir + "/speech.jsonl"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[2] == #"{"lang":"ja","t":2,"text":"読みもの"}"#)
        var info = SF_INFO()
        let file = sf_open(dir + "/speech.wav", Int32(SFM_READ), &info)
        #expect(file != nil && info.channels == 1 && Int(info.frames) == track.count && Int(info.samplerate) == rate)
        sf_close(file)
    }
}
