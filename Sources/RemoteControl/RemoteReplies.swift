import FoundationEssentials
import HTTPTypes
import Hummingbird

/// The JSON replies, written by `JSONEncoder` from the types below. Keys are sorted: the
/// encoder keeps no order of its own, and the same reply must read the same every time.
extension RemoteServer {
    static var stopped: Response { json(.serviceUnavailable, error: "the frame loop has stopped") }

    /// A reply whose body is JSON already written (the app's state), sent as it is.
    static func json(_ status: HTTPResponse.Status, body: String) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: body + "\n")))
    }

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        json(status, body: encoded(value))
    }

    /// `{"error":…}`, with the script's first bad `line` where there is one.
    static func json(
        _ status: HTTPResponse.Status, error: String, line: Int? = nil,
        extraHeaders: HTTPFields = [:]
    ) -> Response {
        var r = json(status, ErrorReply(error: error, line: line))
        r.headers.append(contentsOf: extraHeaders)
        return r
    }

    /// `{"atRest":…,"waitedMs":…,"state":{…}}`: 200 at rest, 408 when the wait timed out. The
    /// state is the app's own JSON and goes in as the app wrote it (decoding and encoding it
    /// again would reorder its keys and rewrite its numbers), after the encoded rest.
    static func waitReply(_ reply: RemoteWaitReply) -> Response {
        json(reply.atRest ? .ok : .requestTimeout, body: waitBody(reply))
    }

    static func waitBody(_ reply: RemoteWaitReply) -> String {
        let head = encoded(WaitReplyHead(atRest: reply.atRest, waitedMs: WireNumber(reply.waited * 1000)))
        return String(head.dropLast()) + ",\"state\":" + reply.stateJSON + "}"
    }

    static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The reply types hold strings, integers, booleans and `WireNumber`s, which always encode.
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Why a request was refused; for a script, the first bad line.
struct ErrorReply: Encodable {
    var error: String
    var line: Int?
}

/// What `/wait` says besides the state (see `RemoteServer.waitReply`).
struct WaitReplyHead: Encodable {
    var atRest: Bool
    var waitedMs: WireNumber
}

/// `POST /events`' answer: how many events ran, and when (seconds on the loop's timeline).
extension RemoteEventsReply: Encodable {
    enum CodingKeys: String, CodingKey {
        case count = "events", arrival, firstApplied, lastApplied, frameNumber
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(count, forKey: .count)
        try c.encode(WireNumber(arrival), forKey: .arrival)
        try c.encode(WireNumber(firstApplied), forKey: .firstApplied)
        try c.encode(WireNumber(lastApplied), forKey: .lastApplied)
        try c.encode(frameNumber, forKey: .frameNumber)
    }
}

/// A time on the wire: to the microsecond, far finer than a frame, so that a reply carries no
/// binary noise (0.30000000000000004); `null` if it is not finite, which JSON has no number for.
struct WireNumber: Encodable {
    var value: Double
    init(_ value: Double) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if value.isFinite {
            try c.encode((value * 1_000_000).rounded() / 1_000_000)
        } else {
            try c.encodeNil()
        }
    }
}
