/// One thing the screen reader says: its text, its language (`en`, `ja`, ...) and when, in
/// seconds on the loop's clock.
public struct Utterance: Hashable, Sendable, Codable {
    public var t: Double
    public var text: String
    public var lang: String
    public init(t: Double, text: String, lang: String) { self.t = t; self.text = text; self.lang = lang }
}

/// Where speech goes (A11Y-2): a sound card on a board, `speech.wav` and `speech.jsonl` in a
/// headless run. Implementations never block the caller: they synthesize and play on their
/// own thread, and a new utterance interrupts the one being said.
public protocol SpeechOutput: AnyObject {
    func speak(_ utterance: Utterance)
    /// Stops what is being said (a two-finger tap).
    func stop(at t: Double)
}
