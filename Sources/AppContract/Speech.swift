/// One thing the screen reader says: its text, its language (`en`, `ja`, ...) and when, in
/// seconds on the loop's clock.
package struct Utterance: Hashable, Sendable, Codable {
    package var t: Double
    package var text: String
    package var lang: String
    package init(t: Double, text: String, lang: String) { self.t = t; self.text = text; self.lang = lang }
}

/// Where the screen reader's speech goes: a sound card on a board, `speech.wav` and `speech.jsonl`
/// in a headless run. Implementations never block the caller: they synthesize and play on their own
/// thread, and a new utterance interrupts the one being said.
package protocol SpeechOutput: AnyObject {
    func speak(_ utterance: Utterance)
    /// Stops what is being said (a two-finger tap).
    func stop(at t: Double)
    /// Loudness from 0 to 1 (a keypad's volume keys).
    func setVolume(_ volume: Double)
}

extension SpeechOutput {
    package func setVolume(_ volume: Double) {}
}

/// What a keypad's keys do for the screen reader (in the manner of ADA 707.6): move to
/// the next or previous element, activate it, go back, say the last utterance again, change
/// the volume, and turn the screen reader on or off.
package struct KeypadMapping: Hashable, Sendable {
    package enum Action: String, Hashable, Sendable, CaseIterable {
        case next, previous, activate, back, `repeat`, volumeUp = "volume_up", volumeDown = "volume_down", toggle
    }
    package var actions: [Key: Action]
    package init(actions: [Key: Action]) { self.actions = actions }

    /// A numeric keypad as a tactile kiosk keypad: 6 and 4 next and previous (2 and 8 too),
    /// 5 or Enter activates, 0 goes back, the dot repeats, + and - set the volume, * turns the
    /// screen reader on and off.
    package static let standard = KeypadMapping(actions: [
        .keypad6: .next, .keypad2: .next, .keypad4: .previous, .keypad8: .previous, .keypad5: .activate,
        .keypadEnter: .activate, .keypad0: .back, .keypadDot: .repeat, .keypadPlus: .volumeUp,
        .keypadMinus: .volumeDown, .keypadAsterisk: .toggle,
    ])

    /// Parses "next:KP6 previous:KP4 activate:KP5 ..." (the config's `keypad`); actions not
    /// named keep no key. Nil with the first bad item named.
    package static func parse(_ text: String) -> Result<KeypadMapping, ParseFailure> {
        var actions: [Key: Action] = [:]
        for item in text.split(whereSeparator: { $0 == " " || $0 == "," }) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let action = Action(rawValue: String(parts[0])), let key = Key(name: String(parts[1])) else {
                return .failure(ParseFailure(item: String(item.prefix(60))))
            }
            actions[key] = action
        }
        return .success(KeypadMapping(actions: actions))
    }

    package struct ParseFailure: Error, Hashable, Sendable {
        package var item: String
        package init(item: String) { self.item = item }
    }
}
