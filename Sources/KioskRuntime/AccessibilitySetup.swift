import BoardConfig
import Logging
import Runtime
import Speech

extension BoardRuntime {
    /// Checks the config's `keypad` and `speech_voice` before the display is taken, so that a
    /// mistake stops the start with its line instead of after the screen went dark (the keypad)
    /// or never (espeak-ng speaks English for a voice it lacks). Without espeak-ng the voice
    /// is not checked: the reader then runs without sound, as `configureAccessibility` logs.
    static func checkAccessibility(_ cfg: BoardConfig) throws {
        if let keypad = cfg.keypad, case let .failure(bad) = KeypadMapping.parse(keypad) {
            throw KeypadError(item: bad.item, place: cfg.place(of: "keypad") ?? "config")
        }
        if let place = cfg.place(of: "speech_voice"), let engine = try? ESpeak(), !engine.hasVoice(cfg.speechVoice) {
            throw VoiceError(voice: cfg.speechVoice, place: place)
        }
    }

    /// The config's screen reader: on from the start or by the keypad's
    /// toggle key, speaking through the ALSA device. A device that cannot be opened is logged
    /// and the reader runs on without sound (its ring and the state JSON still follow it).
    @discardableResult
    static func configureAccessibility(_ settings: inout AppSettings, cfg: BoardConfig, log: Logger) throws -> SpeakerOutput? {
        if let keypad = cfg.keypad {
            switch KeypadMapping.parse(keypad) {
            case let .success(mapping): settings.keypadMapping = mapping
            case let .failure(bad):
                throw AppStartError(underlying: KeypadError(item: bad.item, place: cfg.place(of: "keypad") ?? "config"))
            }
        }
        let voice = VoiceSettings(rate: cfg.speechRate, pitch: cfg.speechPitch, voice: cfg.speechVoice)
        var speaker: SpeakerOutput?
        do {
            let s = try SpeakerOutput(device: cfg.speechDevice, settings: voice, clock: { monotonicSeconds() })
            s.onUnavailable = { reason in log.error("\(reason); the screen reader runs without sound") }
            speaker = s
            settings.speech = s
            if cfg.screenReader { log.info("speech on \(cfg.speechDevice) (\(cfg.speechVoice), \(cfg.speechRate) words a minute)") }
        } catch {
            log.error("\(error); the screen reader runs without sound")
        }
        settings.isScreenReaderEnabled = cfg.screenReader
        settings.textScale = Double(cfg.textSize) / 100
        settings.isHighContrast = cfg.highContrast
        settings.colorScheme = cfg.colorScheme
        return speaker
    }
}

/// A `keypad` item that is not ACTION:KEY.
struct KeypadError: Error, CustomStringConvertible {
    var item: String
    var place: String
    var description: String {
        "\(place): keypad item '\(item)' is not ACTION:KEY (actions: \(KeypadMapping.Action.allCases.map(\.rawValue).joined(separator: ", ")); keys: KP0-KP9, KPPlus, KPMinus, KPAsterisk, KPSlash, KPDot, KPEnter, ...)"
    }
}

/// A `speech_voice` that espeak-ng does not have.
struct VoiceError: Error, CustomStringConvertible {
    var voice: String
    var place: String
    var description: String {
        "\(place): speech_voice '\(voice)' is not a voice espeak-ng has (`espeak-ng --voices` lists them; en, en-gb, de, fr, ...)"
    }
}
