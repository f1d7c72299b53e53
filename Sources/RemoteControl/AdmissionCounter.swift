import NIOConcurrencyHelpers

/// Requests of one kind admitted at once, up to `limit`.
final class AdmissionCounter: Sendable {
    let limit: Int
    private let count = NIOLockedValueBox(0)
    init(limit: Int) { self.limit = limit }
    var current: Int { count.withLockedValue { $0 } }
    /// Takes a place, or nil when all are taken.
    func admit() -> Admission? {
        let admitted = count.withLockedValue { n -> Bool in
            guard n < limit else { return false }
            n += 1
            return true
        }
        return admitted ? Admission(self) : nil
    }
    fileprivate func leave() { count.withLockedValue { $0 -= 1 } }
}

/// A place taken in an `AdmissionCounter`, given back when it goes away.
final class Admission: Sendable {
    private let counter: AdmissionCounter
    fileprivate init(_ counter: AdmissionCounter) { self.counter = counter }
    deinit { counter.leave() }
}
