import CSndFile
#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import Runtime
import SharedLibraries
import Testing
@testable import Speech

/// Speech through espeak-ng: real sound, in proportion to the text, cut by the next.
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
        // Arabic and Hebrew have voices of their own: they say the words, which the English
        // voice cannot (it names the letters, or skips them).
        for (text, language) in [("مرحبا بكم في المحطة", "ar"), ("ברוכים הבאים לתחנה", "he")] {
            let own = e.synthesize(text, language: language, settings: VoiceSettings())
            let english = e.synthesize(text, language: "en", settings: VoiceSettings())
            #expect(own.count > e.sampleRate / 2 && Self.rms(own[...]) > 500, "\(language)")
            #expect(own != english, "\(language) spoken with the English voice")
        }
        let fast = e.synthesize("Rows ten to eighteen of five hundred, scroll area", language: "en", settings: VoiceSettings(rate: 350))
        #expect(fast.count < long.count * 3 / 4)
    }

    /// The board's speaker through ALSA's null device: samples reach it, a newer utterance
    /// replaces the one playing.
    @Test func speakerPlaysThroughALSA() throws {
        let speaker = try SpeakerOutput(device: "null")
        speaker.speak(Utterance(t: 0, text: "Page three of seven", lang: "en"))
        // Up to 10 s: espeak-ng's one synthesizer may be another test's, and the aarch64 suites
        // run under qemu-user.
        var waited = 0
        while speaker.samplesWritten == 0 && waited < 1000 { usleep(10_000); waited += 1 }
        #expect(speaker.samplesWritten > 0)
        speaker.speak(Utterance(t: 0.1, text: "東京", lang: "ja"))
        speaker.stop(at: 0.2)
        // A device that cannot be opened: said once, the speaker goes on silently.
        let missing = try SpeakerOutput(device: "no-such-device")
        missing.speak(Utterance(t: 0, text: "Hello", lang: "en"))
        waited = 0
        while missing.unavailableReason == nil && waited < 1000 { usleep(10_000); waited += 1 }
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
        for (r, dir) in zip(recorders, dirs) {
            try r.finish()
            let track = try #require(SpeechTrack.read(path: dir + "/speech.wav")).samples
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
        try r.finish()
        let track = try #require(SpeechTrack.read(path: dir + "/speech.wav")).samples
        let rate = r.sampleRate
        // The track starts with the first utterance (at 0.5 s on the loop's clock).
        #expect(Self.rms(track[0..<(rate * 3 / 10)]) > 300)  // the first, cut at 0.8 s
        #expect(Self.rms(track[(rate * 3 / 10)..<(rate * 3 / 10 + rate / 2)]) > 300)  // the second
        #expect(track.count > rate * 3 / 2 + rate / 4)
        let lines = String(decoding: try FileIO.readAll(path: dir + "/speech.jsonl"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == #"{"lang":"en","t":0.8,"text":"Photo, button, opens the picture","wav":0.3}"#)
        #expect(lines[2] == #"{"lang":"ja","t":2,"text":"読みもの","wav":1.5}"#)
        let sndfile = try SoundFileFunctions.loaded.get()
        var info = SF_INFO()
        let file = try #require(sndfile.open(dir + "/speech.wav", Int32(SFM_READ), &info))
        #expect(info.channels == 1 && Int(info.frames) == track.count && Int(info.samplerate) == rate)
        _ = sndfile.close(file)
    }

    /// espeak-ng and libsndfile are loaded at the first utterance, not linked: a system without
    /// one runs, and speech fails naming the library and the package that has it.
    @Test func aMissingSpeechLibraryIsNamedWithItsPackage() throws {
        let error = #expect(throws: SharedLibraryError.self) { try SharedLibrary("libglide-no-such-voice.so.1", package: "glide-voice") }
        let message = error.map { "\(SpeechError.libraryMissing($0))" } ?? ""
        #expect(message.hasPrefix("speech is not available: libglide-no-such-voice.so.1 could not be loaded ("))
        #expect(message.hasSuffix("; Debian: apt-get install glide-voice)"))
        let library = try SharedLibrary("libsndfile.so.1", package: "libsndfile1")
        let missing = #expect(throws: SharedLibraryError.self) { try library.function("sf_no_such_function", GlideSfClose.self) }
        #expect(missing?.reason.contains("sf_no_such_function") == true, "dlerror names the function")
    }

    /// The frames and rate of a WAV as libsndfile reads it now, or nil when it cannot.
    static func frames(_ path: String) -> (frames: Int, rate: Int)? {
        guard let sndfile = try? SoundFileFunctions.loaded.get() else { return nil }
        var info = SF_INFO()
        guard let file = sndfile.open(path, Int32(SFM_READ), &info) else { return nil }
        _ = sndfile.close(file)
        return (Int(info.frames), Int(info.samplerate))
    }

    /// Under `--remote` the loop's clock is the machine's uptime: the first utterance after
    /// days of uptime starts the track (not days of silence before it), and an hour without
    /// speech between two utterances becomes a bounded silence, which speech.jsonl's `wav`
    /// (where each utterance starts in the WAV) tells.
    @Test func aLateFirstUtteranceStartsTheTrackAndLongSilencesAreBounded() throws {
        let dir = "/tmp/glide-speech-late-\(getpid())"
        try FileIO.makeDirectory(dir)
        let r = try SpeechRecorder(directory: dir)
        r.speak(Utterance(t: 600, text: "Search, button", lang: "en"))
        r.speak(Utterance(t: 601, text: "Feed, button", lang: "en"))
        r.speak(Utterance(t: 601 + 1800, text: "Photo, button", lang: "en"))
        try r.finish()
        let (frames, rate) = try #require(Self.frames(dir + "/speech.wav"))
        #expect(frames < rate * 30, "\(frames / rate) s of track for 3 short utterances")
        let lines = String(decoding: try FileIO.readAll(path: dir + "/speech.jsonl"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"lang":"en","t":600,"text":"Search, button","wav":0}"#)
        #expect(lines[1] == #"{"lang":"en","t":601,"text":"Feed, button","wav":1}"#)
        #expect(lines[2].hasPrefix(#"{"lang":"en","t":2401,"text":"Photo, button","wav":"#))
        _ = system("rm -rf \(dir)")
    }

    /// The WAV is written as the utterances come, its header kept up to date: a run killed before
    /// `finish` leaves a valid file of what was said until then.
    @Test func theWAVIsValidBeforeTheRecorderFinishes() throws {
        let dir = "/tmp/glide-speech-early-\(getpid())"
        try FileIO.makeDirectory(dir)
        let r = try SpeechRecorder(directory: dir)
        for i in 0..<3 { r.speak(Utterance(t: Double(i), text: "Row \(i + 1) of three, list row", lang: "en")) }
        var seen: (frames: Int, rate: Int)?
        for _ in 0..<200 {
            seen = Self.frames(dir + "/speech.wav")
            if let seen, seen.frames >= 2 * seen.rate { break }
            usleep(50_000)
        }
        #expect(seen != nil && seen!.frames >= 2 * seen!.rate, "before finish: \(String(describing: seen))")
        try r.finish()
        _ = system("rm -rf \(dir)")
    }
}
