import BoardConfig
import Logging
import Runtime
import Speech

extension BoardRuntime {
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
