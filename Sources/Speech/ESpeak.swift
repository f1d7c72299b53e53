import CEspeakNG
import NIOConcurrencyHelpers
import SharedLibraries

/// Why speech cannot be made.
package enum SpeechError: Error, Hashable, Sendable, CustomStringConvertible {
    case unavailable(String)
    case unwritable(path: String, reason: String)
    /// A library speech is made with (loaded at its first use) is not on this system.
    case libraryMissing(SharedLibraryError)

    package var description: String {
        switch self {
        case .unavailable(let why): return "speech is not available: \(why) (is espeak-ng-data installed?)"
        case .unwritable(let path, let reason): return "cannot write \(path): \(reason)"
        case .libraryMissing(let error): return "speech is not available: \(error)"
        }
    }
}

/// The voice's settings, from the config (`speech_rate`, `speech_pitch`, `speech_voice`).
package struct VoiceSettings: Hashable, Sendable {
    /// Words a minute, 80 to 450.
    package var rate = 175
    /// 0 to 100; 50 is the voice's own.
    package var pitch = 50
    /// The espeak-ng voice for text in its language (`en`, `en-gb`, `de`, `fr`, ...); text in
    /// another language gets that language's voice.
    package var voice = "en"
    /// 0 to 100.
    package var volume = 100
    package init(rate: Int = 175, pitch: Int = 50, voice: String = "en", volume: Int = 100) {
        self.rate = rate; self.pitch = pitch; self.voice = voice; self.volume = volume
    }
}

/// espeak-ng, which keeps its state in the process: every `ESpeak` shares the one synthesizer,
/// behind one lock (a recorder and a speaker in one process, or two tests at once, take turns),
/// handing its samples over in chunks of 50 ms, so that a newer utterance stops it soon.
package final class ESpeak: Sendable {
    package let sampleRate: Int

    /// The process's synthesizer: its sample rate once started, and the voice it has now.
    private struct Engine { var rate: Int32 = 0; var voice = "" }
    private let espeak: ESpeakFunctions
    private static let engine = NIOLockedValueBox(Engine())

    /// Collects samples for the synthesis running; `abort` stops it (a newer utterance).
    final class Sink {
        var samples: [Int16] = []
        var abort: () -> Bool = { false }
        var deliver: ((UnsafeBufferPointer<Int16>) -> Void)?
    }

    package init() throws(SpeechError) {
        let espeak = try ESpeakFunctions.loaded.get()
        self.espeak = espeak
        let rate = Self.engine.withLockedValue { e -> Int32 in
            if e.rate <= 0 {
                e.rate = espeak.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 50, nil, Int32(espeakINITIALIZE_DONT_EXIT))
                if e.rate > 0 { espeak.setSynthCallback(ESpeak.callback) }
            }
            return e.rate
        }
        guard rate > 0 else { throw .unavailable("espeak-ng did not start (\(rate))") }
        sampleRate = Int(rate)
    }

    private static let callback: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = {
        wav, count, events in
        guard let events, let user = events.pointee.user_data else { return 0 }
        let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
        if let wav, count > 0 {
            let buffer = UnsafeBufferPointer(start: wav, count: Int(count))
            if let deliver = sink.deliver { deliver(buffer) } else { sink.samples.append(contentsOf: buffer) }
        }
        return sink.abort() ? 1 : 0
    }

    /// Whether espeak-ng has the voice `name` (`speech_voice`): asked at start-up, as the
    /// synthesizer would otherwise speak English without a word when it has not.
    package func hasVoice(_ name: String) -> Bool {
        Self.engine.withLockedValue { e in
            // Selecting is the one test of a name that espeak-ng itself would accept; the next
            // utterance selects its own voice again.
            e.voice = ""
            return espeak.setVoiceByName(name) == EE_OK
        }
    }

    /// The voice for `language`: `settings.voice` when it speaks that language ("en-gb" for
    /// "en"), else the language's own voice (Japanese, Arabic or Hebrew text, a view's
    /// `accessibilityLanguage`); English when espeak-ng has none.
    private func select(_ language: String, _ settings: VoiceSettings, current: inout String) {
        let primary = settings.voice.split(separator: "-").first.map(String.init) ?? settings.voice
        let name = language.isEmpty || primary == language ? settings.voice : language
        if name != current {
            if espeak.setVoiceByName(name) != EE_OK { _ = espeak.setVoiceByName("en") }
            current = name
        }
        _ = espeak.setParameter(espeakRATE, Int32(max(80, min(450, settings.rate))), 0)
        _ = espeak.setParameter(espeakPITCH, Int32(max(0, min(100, settings.pitch))), 0)
        _ = espeak.setParameter(espeakVOLUME, Int32(max(0, min(100, settings.volume))), 0)
    }

    /// Synthesizes `text` (at most 4 KiB of it) and returns its samples (16-bit mono at
    /// `sampleRate`), or hands them to `deliver` as they come; `abort` is asked between chunks.
    @discardableResult
    package func synthesize(
        _ text: String, language: String, settings: VoiceSettings, abort: @escaping () -> Bool = { false },
        deliver: ((UnsafeBufferPointer<Int16>) -> Void)? = nil
    ) -> [Int16] {
        let sink = Sink()
        sink.abort = abort
        sink.deliver = deliver
        var bytes = Array(text.utf8.prefix(4096))
        bytes.append(0)
        let user = Unmanaged.passRetained(sink)
        defer { user.release() }
        Self.engine.withLockedValue { e in
            select(language, settings, current: &e.voice)
            _ = bytes.withUnsafeBytes { raw in
                espeak.synth(raw.baseAddress, raw.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, user.toOpaque())
            }
            _ = espeak.synchronize()
        }
        return sink.samples
    }
}
