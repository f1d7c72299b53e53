/// Something at the edge that may not be ready yet (a display card at boot): tried again every
/// `interval` while it fails in a way that may pass, for at most `seconds`. Time and sleeping are
/// passed in, so tests run it on a virtual clock.
package struct PatientAttempt {
    package var seconds: Double
    package var interval: Double
    package var clock: () -> Double
    package var sleep: (Double) -> Void

    package init(seconds: Double, interval: Double = 0.05, clock: @escaping () -> Double, sleep: @escaping (Double) -> Void) {
        self.seconds = seconds
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
    }

    /// `attempt`'s result; its error once it is not transient or the time is up. `onFirstWait`
    /// hears the first transient error (to say what is awaited), `onSuccess` the seconds waited.
    package func run<T>(
        isTransient: (any Error) -> Bool,
        onFirstWait: (any Error) -> Void = { _ in },
        onSuccess: (Double) -> Void = { _ in },
        _ attempt: () throws -> T
    ) throws -> T {
        let start = clock()
        var waited = false
        while true {
            do {
                let value = try attempt()
                onSuccess(waited ? clock() - start : 0)
                return value
            } catch {
                guard isTransient(error), seconds.isFinite, clock() - start + interval <= seconds else { throw error }
                if !waited { onFirstWait(error); waited = true }
                sleep(interval)
            }
        }
    }
}
