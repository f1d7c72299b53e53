import CSndFile
import Dispatch
import FoundationEssentials
import ImageCodecs
import AppContract
import Synchronization

/// Headless speech of the screen reader, so CI hears what a person would: each utterance is a line
/// of `speech.jsonl` (`t`, `text`, `lang`) and its sound goes into `speech.wav` at its time on the
/// run's virtual clock, cut where the next utterance (or a stop) begins, as a speaker would cut it.
/// Synthesis runs on its own queue: the frame loop never waits for it.
package final class SpeechRecorder: SpeechOutput, Sendable {
    package let directory: String
    private let settings: VoiceSettings
    private let engine: ESpeak
    private let queue = DispatchQueue(label: "glide.speech")
    private struct Recorded { var utterance: Utterance; var samples: [Int16]? }
    private let recorded = Mutex<[Recorded]>([])
    private let stops = Mutex<[Double]>([])
    private let volume = Mutex<Int>(100)

    package init(directory: String, settings: VoiceSettings = VoiceSettings()) throws(SpeechError) {
        self.directory = directory
        self.settings = settings
        engine = try ESpeak()
    }

    package func speak(_ utterance: Utterance) {
        let index = recorded.withLock { r in
            r.append(Recorded(utterance: utterance, samples: nil)); return r.count - 1
        }
        var voice = settings
        voice.volume = volume.withLock { $0 }
        queue.async { [self, voice] in
            let samples = engine.synthesize(utterance.text, language: utterance.lang, settings: voice)
            recorded.withLock { $0[index].samples = samples }
        }
    }

    package func stop(at t: Double) { stops.withLock { $0.append(t) } }

    package func setVolume(_ v: Double) { volume.withLock { $0 = Int((max(0, min(1, v)) * 100).rounded()) } }

    /// The utterances so far.
    package var utterances: [Utterance] { recorded.withLock { $0.map(\.utterance) } }

    package var sampleRate: Int { engine.sampleRate }

    /// Waits for the synthesis and writes `speech.jsonl` and `speech.wav` (mono, 16-bit, from
    /// t = 0 to the end of the last utterance). Returns the WAV's samples.
    @discardableResult
    package func finish() throws(SpeechError) -> [Int16] {
        queue.sync {}
        let all = recorded.withLock { $0 }
        let stopTimes = stops.withLock { $0 }
        let rate = sampleRate
        var lines = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var track: [Int16] = []
        for (i, r) in all.enumerated() {
            if let data = try? encoder.encode(r.utterance) { lines += String(decoding: data, as: UTF8.self) + "\n" }
            let start = max(0, Int((r.utterance.t * Double(rate)).rounded()))
            // Cut at the next utterance or stop after this one starts.
            let next = (all.dropFirst(i + 1).map(\.utterance.t) + stopTimes.filter { $0 >= r.utterance.t }).min()
            var samples = r.samples ?? []
            if let next { samples = Array(samples.prefix(max(0, Int((next * Double(rate)).rounded()) - start))) }
            if track.count < start { track += [Int16](repeating: 0, count: start - track.count) }
            track.replaceSubrange(start..<min(track.count, start + samples.count), with: samples)
        }
        do { try FileIO.writeAll(Array(lines.utf8), path: directory + "/speech.jsonl") } catch {
            throw .unwritable(path: directory + "/speech.jsonl", reason: "\(error)")
        }
        try Self.writeWAV(track, rate: rate, path: directory + "/speech.wav")
        return track
    }

    static func writeWAV(_ samples: [Int16], rate: Int, path: String) throws(SpeechError) {
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw .unwritable(path: path, reason: String(cString: sf_strerror(nil)))
        }
        let written = samples.withUnsafeBufferPointer { sf_write_short(file, $0.baseAddress, sf_count_t($0.count)) }
        sf_close(file)
        guard written == samples.count else { throw .unwritable(path: path, reason: "wrote \(written) of \(samples.count) samples") }
    }
}
