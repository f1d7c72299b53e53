import CSndFile
import Dispatch
import FoundationEssentials
import ImageCodecs
import AppContract
import NIOConcurrencyHelpers

/// Headless speech of the screen reader, so CI hears what a person would: each utterance is a line
/// of `speech.jsonl` (`t` on the loop's clock, `text`, `lang`, and `wav`, where its sound starts in
/// `speech.wav`, in seconds) and its sound goes into `speech.wav`, cut where the next utterance (or
/// a stop) begins, as a speaker would cut it. The WAV is written as the utterances come (see
/// `SpeechTrack`): it starts at the first utterance, a long pause becomes at most
/// `maximumSilence` seconds of silence, and a run killed midway leaves a valid file.
/// Synthesis runs on its own queue: the frame loop never waits for it.
package final class SpeechRecorder: SpeechOutput, Sendable {
    package let directory: String
    private let settings: VoiceSettings
    private let engine: ESpeak
    private let queue = DispatchQueue(label: "glide.speech")
    private let track: SpeechTrack
    /// What speech.jsonl will say: each utterance and where it starts in the WAV.
    private struct Line: Encodable { var lang: String; var t: Double; var text: String; var wav: Double? }
    private let said = NIOLockedValueBox<[Line]>([])
    private let volume = NIOLockedValueBox<Int>(100)

    /// The longest silence written between two utterances, in seconds.
    package static let maximumSilence = 10.0

    /// Creates `speech.wav` in `directory` (an error now if it cannot be); `speech.jsonl` is
    /// written by `finish`.
    package init(directory: String, settings: VoiceSettings = VoiceSettings()) throws(SpeechError) {
        self.directory = directory
        self.settings = settings
        engine = try ESpeak()
        track = try SpeechTrack(path: directory + "/speech.wav", rate: engine.sampleRate, maximumSilence: Self.maximumSilence)
    }

    package func speak(_ utterance: Utterance) {
        let index = said.withLockedValue { l in
            l.append(Line(lang: utterance.lang, t: utterance.t, text: utterance.text)); return l.count - 1
        }
        var voice = settings
        voice.volume = volume.withLockedValue { $0 }
        queue.async { [self, voice] in
            // Whole, even when the next utterance is known to cut it: an aborted synthesis
            // changes espeak-ng's next output, and the recording is to be the same every run.
            let samples = engine.synthesize(utterance.text, language: utterance.lang, settings: voice)
            let start = track.add(samples, at: utterance.t)
            said.withLockedValue { $0[index].wav = (start * 1_000_000).rounded() / 1_000_000 }
        }
    }

    package func stop(at t: Double) {
        queue.async { [self] in track.stop(at: t) }
    }

    package func setVolume(_ v: Double) { volume.withLockedValue { $0 = Int((max(0, min(1, v)) * 100).rounded()) } }

    /// The utterances so far.
    package var utterances: [Utterance] { said.withLockedValue { $0.map { Utterance(t: $0.t, text: $0.text, lang: $0.lang) } } }

    package var sampleRate: Int { engine.sampleRate }

    /// Waits for the synthesis, writes the last utterance into `speech.wav` and closes it, and
    /// writes `speech.jsonl`. Throws the first write of either that failed (a full disk): the
    /// run fails rather than leave a shorter recording unnoticed.
    package func finish() throws(SpeechError) {
        let failure = queue.sync { track.close() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lines = ""
        for line in said.withLockedValue({ $0 }) {
            if let data = try? encoder.encode(line) { lines += String(decoding: data, as: UTF8.self) + "\n" }
        }
        do { try FileIO.writeAll(Array(lines.utf8), path: directory + "/speech.jsonl") } catch {
            throw .unwritable(path: directory + "/speech.jsonl", reason: "\(error)")
        }
        if let failure { throw failure }
    }
}
