import Geometry
import Raster
import UI

/// Reads a fuzzer's bytes as a little program: numbers, choices and coordinates. Past the end
/// every read returns zero, so any input is a complete program.
public struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// A whole number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(UInt(uint16()) % span)
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// One of `choices`.
    public mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

    /// A coordinate: usually an ordinary value within `-limit...limit` in sixteenths, sometimes
    /// one that breaks arithmetic (NaN, infinities, 1e300, the largest Int32, -0).
    public mutating func coordinate(limit: Double = 2048) -> Double {
        let kind = byte()
        switch kind {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return 1e300
        case 4: return -1e300
        case 5: return Double(Int32.max)
        case 6: return -Double(Int32.max) - 1
        case 7: return -0.0
        case 8: return .ulpOfOne
        default:
            let raw = Double(Int16(bitPattern: uint16())) / 16
            return max(-limit, min(limit, raw))
        }
    }

    /// A coordinate that is always finite (for places where the caller checks finiteness first).
    public mutating func finiteCoordinate(limit: Double = 2048) -> Double {
        let v = coordinate(limit: limit)
        return v.isFinite ? v : 0
    }

    public mutating func point(limit: Double = 2048) -> Point { Point(x: coordinate(limit: limit), y: coordinate(limit: limit)) }

    public mutating func rect(limit: Double = 2048) -> Rect {
        Rect(x: coordinate(limit: limit), y: coordinate(limit: limit), width: coordinate(limit: limit), height: coordinate(limit: limit))
    }

    /// The unread bytes.
    public mutating func rest() -> UnsafeRawBufferPointer {
        guard position < bytes.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        defer { position = bytes.count }
        return UnsafeRawBufferPointer(rebasing: bytes[position...])
    }
}

/// A finding: the fuzzer records the input that reached it. Under AddressSanitizer a memory
/// error is a finding too, without any check here.
public func expect(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError(message(), file: file, line: line) }
}

/// Frames at 60 Hz after `t` until `window` rests, at most `seconds`; true when it did.
func comesToRest(_ window: Window, into frame: PixelBuffer, after t: Double, within seconds: Double) -> Bool {
    for k in 1...Int(seconds * 60) {
        let time = t + Double(k) / 60
        _ = window.render(into: frame, at: time)
        if window.isAtRest(at: time) { return true }
    }
    return false
}
