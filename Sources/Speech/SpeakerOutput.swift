import CALSA
import Dispatch
import AppContract
import NIOConcurrencyHelpers
import Synchronization

/// Speech on a board's sound card, for the screen reader: espeak-ng synthesizes on the speaker's
/// own thread and the samples go to ALSA as they come. A new utterance (or a stop) interrupts the
/// one playing within one synthesis chunk (50 ms) and drops what ALSA still holds. The frame loop
/// only hands the text over. The device is opened at the first utterance, so a kiosk whose screen
/// reader stays off never holds the sound card.
package final class SpeakerOutput: SpeechOutput, @unchecked Sendable {
    package let device: String
    private let settings: VoiceSettings
    // Used on `queue` only.
    private let engine: ESpeak
    private var pcm: OpaquePointer?
    /// Why the device could not be opened (then utterances are dropped); reported once.
    private let failure = NIOLockedValueBox<String?>(nil)
    /// Called once, on the speaker's thread, when the device cannot be opened.
    package var onUnavailable: (@Sendable (String) -> Void)?
    private let queue = DispatchQueue(label: "glide.speaker")
    /// Bumped by every utterance and stop: a synthesis whose number is no longer current stops.
    private let current = Atomic<Int>(0)
    private let volume = Atomic<Int>(100)
    /// Samples written to the device, for tests and statistics.
    private let written = Atomic<Int>(0)
    /// The clock utterances' times are on (the board's loop clock, CLOCK_MONOTONIC): with it,
    /// the delay from each utterance to its first sample on the device is kept.
    private let clock: (@Sendable () -> Double)?
    private let delays = NIOLockedValueBox<[Double]>([])
    /// Seconds from each utterance's time to its first samples reaching the device.
    package var firstSampleDelays: [Double] { delays.withLockedValue { $0 } }

    /// Opens `device` (an ALSA name: `default`, `hw:0,0`, `plughw:1`) at espeak-ng's rate.
    package init(
        device: String = "default", settings: VoiceSettings = VoiceSettings(),
        clock: (@Sendable () -> Double)? = nil
    ) throws(SpeechError) {
        self.device = device
        self.settings = settings
        self.clock = clock
        engine = try ESpeak()
    }

    /// Opens the device for 16-bit mono at the synthesizer's rate (ALSA's plug layer resamples
    /// where the card needs it), 100 ms of latency. On the speaker's thread.
    private func openDevice() -> OpaquePointer? {
        if let pcm { return pcm }
        guard failure.withLockedValue({ $0 }) == nil else { return nil }
        var handle: OpaquePointer?
        var err = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        if err >= 0, let handle {
            err = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(engine.sampleRate), 1, 100_000)
            if err >= 0 { pcm = handle; return handle }
            snd_pcm_close(handle)
        }
        let reason = "the sound device '\(device)' cannot be used: \(String(cString: snd_strerror(err)))"
        failure.withLockedValue { $0 = reason }
        onUnavailable?(reason)
        return nil
    }

    /// Why speech is silent, once the device was tried and failed.
    package var unavailableReason: String? { failure.withLockedValue { $0 } }

    deinit {
        queue.sync {}
        if let pcm { snd_pcm_close(pcm) }
    }

    package var samplesWritten: Int { written.load(ordering: .relaxed) }
    package var sampleRate: Int { engine.sampleRate }

    package func speak(_ utterance: Utterance) {
        let mine = current.add(1, ordering: .relaxed).newValue
        var voice = settings
        voice.volume = volume.load(ordering: .relaxed)
        queue.async { [self, voice] in
            guard current.load(ordering: .relaxed) == mine, let pcm = openDevice() else { return }
            var first = true
            engine.synthesize(
                utterance.text, language: utterance.lang, settings: voice,
                abort: { self.current.load(ordering: .relaxed) != mine }
            ) { samples in
                guard self.current.load(ordering: .relaxed) == mine else { return }
                self.play(samples, on: pcm)
                if first, let clock = self.clock {
                    let now = clock()
                    self.delays.withLockedValue { $0.append(now - utterance.t) }
                }
                first = false
            }
            if current.load(ordering: .relaxed) != mine { cut() } else { snd_pcm_drain(pcm); snd_pcm_prepare(pcm) }
        }
    }

    package func setVolume(_ v: Double) { volume.store(Int((max(0, min(1, v)) * 100).rounded()), ordering: .relaxed) }

    package func stop(at t: Double) {
        current.add(1, ordering: .relaxed)
        queue.async { [self] in cut() }
    }

    /// Drops what the device still holds, ready for the next utterance.
    private func cut() {
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
    }

    private func play(_ samples: UnsafeBufferPointer<Int16>, on pcm: OpaquePointer) {
        var offset = 0
        while offset < samples.count {
            let n = snd_pcm_writei(pcm, samples.baseAddress! + offset, snd_pcm_uframes_t(samples.count - offset))
            if n < 0 {
                // An underrun (the synthesizer was slower than the card) or a suspend: recover
                // and go on; anything else ends this utterance.
                guard snd_pcm_recover(pcm, Int32(n), 1) >= 0 else { return }
                continue
            }
            offset += Int(n)
            written.add(Int(n), ordering: .relaxed)
        }
    }
}
