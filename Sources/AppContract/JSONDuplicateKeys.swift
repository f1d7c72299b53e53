import FoundationEssentials

/// JSONDecoder keeps the last of two equal names in an object, so `{"t":0,"t":5000}` would pass
/// as t = 5000 and a manifest naming `id` twice would show the second: Glide refuses such text
/// instead (RFC 8259 leaves duplicates to the reader). This walks only the structure of text
/// the decoder has already accepted; each name is decoded by JSONDecoder itself, so `"t"` and
/// `"\u0074"` are the same name.
package enum JSONDuplicateKeys {
    /// The first name that an object of `json` gives twice, and the line it is on (1-based).
    package static func first(in json: some Collection<UInt8>) -> (name: String, line: Int)? {
        let bytes = Array(json)
        var objects: [Set<String>?] = []  // nil for an array
        var expectingName = false
        var line = 1
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"):
                objects.append([])
                expectingName = true
            case UInt8(ascii: "["):
                objects.append(nil)
                expectingName = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !objects.isEmpty { objects.removeLast() }
                expectingName = false
            case UInt8(ascii: ","):
                expectingName = objects.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                var end = i + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingName, let last = objects.last, var names = last {
                    let token = bytes[i...min(end, bytes.count - 1)]
                    // Only a name with escapes needs the decoder; the others are their bytes.
                    let name =
                        token.contains(UInt8(ascii: "\\"))
                        ? (try? JSONDecoder().decode(String.self, from: Data(token))) ?? String(decoding: token, as: UTF8.self)
                        : String(decoding: token.dropFirst().dropLast(), as: UTF8.self)
                    guard names.insert(name).inserted else { return (name, line) }
                    objects[objects.count - 1] = names
                    expectingName = false
                }
                i = end
            default:
                break
            }
            i += 1
        }
        return nil
    }
}
