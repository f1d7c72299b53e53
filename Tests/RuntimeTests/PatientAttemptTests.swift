import Testing
@testable import Runtime

/// Waiting for something at the edge (a display card at boot) on a virtual clock.
@Suite struct PatientAttemptTests {
    struct NotYet: Error {}
    struct Broken: Error {}

    final class VirtualClock {
        var now = 100.0
        var sleeps: [Double] = []
    }

    func attempt(seconds: Double, _ clock: VirtualClock) -> PatientAttempt {
        PatientAttempt(
            seconds: seconds, interval: 0.25, clock: { clock.now },
            sleep: {
                clock.sleeps.append($0); clock.now += $0
            })
    }

    @Test func aTransientFailureIsTriedAgainUntilItPasses() throws {
        let clock = VirtualClock()
        var tries = 0, firstWait: [String] = [], waited: [Double] = []
        let value = try attempt(seconds: 2, clock).run(
            isTransient: { $0 is NotYet },
            onFirstWait: { firstWait.append("\($0)") },
            onSuccess: { waited.append($0) }
        ) {
            tries += 1
            if tries < 4 { throw NotYet() }
            return "card0"
        }
        #expect(value == "card0" && tries == 4)
        #expect(clock.sleeps == [0.25, 0.25, 0.25])
        #expect(firstWait.count == 1 && waited == [0.75])
    }

    @Test func atOnceIsZeroSecondsWaited() throws {
        let clock = VirtualClock()
        var waited: [Double] = []
        #expect(try attempt(seconds: 2, clock).run(isTransient: { _ in true }, onSuccess: { waited.append($0) }) { 7 } == 7)
        #expect(clock.sleeps.isEmpty && waited == [0])
    }

    @Test func theTimeRunsOutWithTheLastError() {
        let clock = VirtualClock()
        var tries = 0
        #expect(throws: NotYet.self) {
            try attempt(seconds: 1, clock).run(isTransient: { $0 is NotYet }) { () throws -> Int in
                tries += 1; throw NotYet()
            }
        }
        // Tries at 0, 0.25, 0.5, 0.75 and 1.0 s: a sleep never goes past the limit.
        #expect(tries == 5 && clock.sleeps.count == 4 && clock.now == 101)
    }

    @Test func anotherErrorOrNoTimeEndsAtOnce() {
        let clock = VirtualClock()
        var tries = 0
        #expect(throws: Broken.self) {
            try attempt(seconds: 5, clock).run(isTransient: { $0 is NotYet }) { () throws -> Int in
                tries += 1; throw Broken()
            }
        }
        for seconds in [0, -1, .nan, .infinity] {
            #expect(throws: NotYet.self) {
                try attempt(seconds: seconds, clock).run(isTransient: { _ in true }) { () throws -> Int in
                    tries += 1; throw NotYet()
                }
            }
        }
        #expect(tries == 5 && clock.sleeps.isEmpty)
    }
}
