import Testing

@testable import RemoteControl

/// The pieces behind round four of hostile input (issue 46) that need no server: the
/// rate-limited refusal log, `readonly`'s values and the lone surrogate's message. The server's
/// side (descriptors, continuation frames, 431, keep-alive) is tried against the real binary in
/// Tests/Live/test_hostile.py.
@Suite struct HostileInputTests {
    @Test func refusalsAreLoggedAFewASecondAndTheRestCounted() async throws {
        let log = LogCollector()
        let refusals = RefusalLog(logger: log.logger, perSecond: 5)
        for i in 0..<1000 { refusals.warning("remote: 401 GET /\(i)") }
        #expect(log.lines.withLockedValue { $0.count } == 5)
        try await Task.sleep(for: .milliseconds(1100))
        refusals.warning("remote: 401 GET /late")
        let lines = log.lines.withLockedValue { $0 }
        #expect(lines.count == 7)
        #expect(lines[5].contains("995 refusals not logged"))
        #expect(lines[6].contains("/late"))
    }

    @Test func readonlyTakesYesAndNoWordsAndRefusesTheRest() {
        for text in ["1", "true", "TRUE", "yes"] { #expect(RemoteServer.flag(text) == true) }
        for text in [nil, "0", "false", "no"] as [String?] { #expect(RemoteServer.flag(text) == false) }
        for text in ["", "2", "maybe", "on"] { #expect(RemoteServer.flag(text) == nil) }
    }

    @Test func aLoneSurrogateIsNamedWithItsPlace() {
        let high = JSONEscapes.loneSurrogate(in: #"{"t":0,"type":"a\ud800b"}"#)
        #expect(high?.hasPrefix(#"a lone surrogate \ud800 at character 17"#) == true)
        let low = JSONEscapes.loneSurrogate(inLine: 2, of: "{\"t\":0,\"key\":\"Up\"}\n{\"type\":\"\\udc00\"}")
        #expect(low?.hasPrefix(#"a lone surrogate \udc00 at character 10"#) == true)
        // A pair, an escaped backslash before a `u`, and plain escapes are fine.
        #expect(JSONEscapes.loneSurrogate(in: #"{"type":"\ud83d\ude00 \\ud800 \u00e9 \n"}"#) == nil)
        #expect(JSONEscapes.loneSurrogate(inLine: 3, of: "{}") == nil)
    }
}
