import Geometry
import Scrolling

/// A bad line in a feel-lab input file: says which line and what is wrong.
package struct FeelInputError: Error, Hashable, CustomStringConvertible {
    package var line: Int
    package var message: String
    package init(line: Int, _ message: String) { self.line = line; self.message = message }
    package var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// One row of a touch trace: `t_ms,phase,id,x,y`.
package struct TraceSample: Hashable, Sendable {
    package enum Phase: String, Hashable, Sendable, CaseIterable { case down, move, up, cancel }
    package var line: Int
    package var milliseconds: Double
    package var phase: Phase
    package var id: Int
    /// Ignored for `up` (it only marks the release) and `cancel`.
    package var location: Point

    package var touchEvent: TouchEvent {
        let phase: TouchEvent.Phase
        switch self.phase {
        case .down: phase = .began
        case .move: phase = .moved
        case .up: phase = .ended
        case .cancel: phase = .cancelled
        }
        return TouchEvent(phase, id: id, location: location, time: milliseconds / 1000)
    }
}

/// Parses CSV touch traces: an optional header line, `#` comments and blank lines allowed.
/// Checks what would make the result meaningless: missing or non-numeric columns, unknown
/// phases, NaN or infinite values, time going backwards, moves or lifts of a finger that is not
/// down, and a finger going down twice.
package enum TouchTrace {
    /// Milliseconds from the first sample to the last.
    package static let maximumSpan = 600_000.0

    package static func parse(_ text: String) throws(FeelInputError) -> [TraceSample] {
        var samples: [TraceSample] = []
        var down: Set<Int> = []
        var lastTime = -Double.infinity
        var sawData = false
        for (index, rawLine) in textLines(text).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { String($0).trimmingCharacters(in: " \t") }
            if !sawData, fields.first.map({ Double($0) == nil }) == true, fields.count >= 2,
                TraceSample.Phase(rawValue: fields[1].lowercased()) == nil
            {
                sawData = true
                continue  // header
            }
            sawData = true
            guard fields.count >= 3 else {
                throw FeelInputError(line: lineNumber, "expected t_ms,phase,id,x,y but found \(fields.count) column(s)")
            }
            let t = try number(fields[0], "t_ms", lineNumber)
            guard let phase = TraceSample.Phase(rawValue: fields[1].lowercased()) else {
                throw FeelInputError(line: lineNumber, "unknown phase '\(excerpt(fields[1]))' (expected down, move, up or cancel)")
            }
            guard let id = Int(fields[2]) else {
                throw FeelInputError(line: lineNumber, "finger id '\(excerpt(fields[2]))' is not an integer")
            }
            var location = Point.zero
            if phase == .down || phase == .move {
                guard fields.count >= 5 else {
                    throw FeelInputError(line: lineNumber, "a \(phase.rawValue) needs x and y (t_ms,phase,id,x,y)")
                }
                location = Point(x: try number(fields[3], "x", lineNumber), y: try number(fields[4], "y", lineNumber))
            }
            // Each frame of the span is a row of the table: a trace of a day would be millions.
            if let first = samples.first, t - first.milliseconds > TouchTrace.maximumSpan {
                throw FeelInputError(line: lineNumber, "the trace spans more than \(Int(TouchTrace.maximumSpan)) ms (10 minutes)")
            }
            guard t >= lastTime else {
                throw FeelInputError(line: lineNumber, "time goes backwards (\(excerpt(fields[0])) ms after \(lastTime) ms)")
            }
            lastTime = t
            switch phase {
            case .down:
                guard !down.contains(id) else { throw FeelInputError(line: lineNumber, "finger \(id) is already down") }
                down.insert(id)
            case .move:
                guard down.contains(id) else { throw FeelInputError(line: lineNumber, "move of finger \(id), which is not down") }
            case .up, .cancel:
                guard down.remove(id) != nil else {
                    throw FeelInputError(line: lineNumber, "\(phase.rawValue) of finger \(id) without a down")
                }
            }
            samples.append(TraceSample(line: lineNumber, milliseconds: t, phase: phase, id: id, location: location))
        }
        return samples
    }

    static func number(_ field: String, _ name: String, _ line: Int) throws(FeelInputError) -> Double {
        guard let v = Double(field) else {
            throw FeelInputError(line: line, "\(name) '\(excerpt(field))' is not a number")
        }
        guard v.isFinite else { throw FeelInputError(line: line, "\(name) is \(excerpt(field)); it must be finite") }
        guard abs(v) <= 1e9 else { throw FeelInputError(line: line, "\(name) \(excerpt(field)) is out of range") }
        return v
    }
}
