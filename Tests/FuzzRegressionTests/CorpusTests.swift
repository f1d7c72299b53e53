import FuzzTargets
import Testing

/// Every kept fuzzer input, including each one that once found a bug, runs through its
/// target on every test run (without the sanitizers: Tests/Fuzz/run.sh replays them with).
@Suite struct CorpusTests {
    @Test(arguments: FuzzTarget.allCases)
    func keptInputsPass(_ target: FuzzTarget) throws {
        let count = try target.replay(path: target.corpusDirectory, context: FuzzContext())
        #expect(count >= 3, "the \(target.rawValue) corpus holds \(count) inputs")
    }
}
