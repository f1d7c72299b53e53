/// The size an SVG's entity references expand to, counted from its DOCTYPE's declarations
/// before librsvg parses it: libxml2 stops a billion laughs, but not one 3,000-byte entity
/// referenced 2,000 times (9 KB of file, 6 MB of text, 2.2 GB in librsvg's text layout).
struct SVGEntities {
    /// Each declared entity's replacement text: its length and the references in it.
    private var declared: [String: (length: Int, references: [String: Int])] = [:]
    /// References outside the declarations, by name.
    private var used: [String: Int] = [:]

    /// Declarations past this are refused: a picture's are a handful, and the count bounds the
    /// depth of the expansion below.
    static let maxDeclarations = 1000

    init(scanning bytes: [UInt8]) throws(ImageCodecError) {
        let declaration = Array("<!ENTITY".utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), bytes[i...].starts(with: declaration) {
                i = try declare(bytes, from: i + declaration.count)
            } else if bytes[i] == UInt8(ascii: "&"), let (name, end) = Self.reference(bytes, at: i) {
                used[name, default: 0] += 1
                i = end
            } else {
                i += 1
            }
        }
    }

    /// Bytes the references add in all, nested ones included (counted, never expanded).
    func expandedBytes() throws(ImageCodecError) -> Double {
        var sizes: [String: Double] = [:]
        var open: Set<String> = []
        var total = 0.0
        for (name, count) in used where declared[name] != nil {
            total += Double(count) * max(0, (try size(of: name, &sizes, &open)) - Double(name.utf8.count + 2))
        }
        return total
    }

    private func size(of name: String, _ sizes: inout [String: Double], _ open: inout Set<String>) throws(ImageCodecError) -> Double {
        if let known = sizes[name] { return known }
        guard let entity = declared[name] else { return 0 }
        guard open.insert(name).inserted else { throw .invalidSVG(message: "its entity '\(name)' refers to itself") }
        var total = Double(entity.length)
        for (inner, count) in entity.references where declared[inner] != nil {
            // Each `&inner;` is replaced, not added to.
            total += Double(count) * ((try size(of: inner, &sizes, &open)) - Double(inner.utf8.count + 2))
        }
        open.remove(name)
        sizes[name] = total
        return total
    }

    /// Reads `<!ENTITY name "value">` from after its keyword; returns where it ends. A
    /// parameter entity (`%`) is refused: its text could declare entities this scan cannot see.
    private mutating func declare(_ bytes: [UInt8], from start: Int) throws(ImageCodecError) -> Int {
        var i = Self.skipSpace(bytes, start)
        if i < bytes.count, bytes[i] == UInt8(ascii: "%") {
            throw .svgTooCostly(reason: "it declares a parameter entity, which pictures have no use for")
        }
        let nameStart = i
        while i < bytes.count, !Self.isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        i = Self.skipSpace(bytes, i)
        var entity = (length: 0, references: [String: Int]())
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
            let quote = bytes[i]
            let valueStart = i + 1
            i = valueStart
            while i < bytes.count, bytes[i] != quote {
                if bytes[i] == UInt8(ascii: "&"), let (inner, end) = Self.reference(bytes, at: i) {
                    entity.references[inner, default: 0] += 1
                    i = end
                } else {
                    i += 1
                }
            }
            entity.length = min(i, bytes.count) - valueStart
        }
        // An external entity (SYSTEM or PUBLIC) keeps length 0: librsvg loads no other file.
        guard declared.count < Self.maxDeclarations else {
            throw .svgTooCostly(reason: "it declares more than \(Self.maxDeclarations) entities")
        }
        if declared[name] == nil { declared[name] = entity }  // XML keeps the first declaration
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") { i += 1 }
        return i + 1
    }

    /// The name of `&name;` at `i` and the index after it; nil for a character reference or text.
    private static func reference(_ bytes: [UInt8], at i: Int) -> (String, Int)? {
        var j = i + 1
        while j < bytes.count, j - i <= 256, bytes[j] != UInt8(ascii: ";") {
            if isSpace(bytes[j]) || bytes[j] == UInt8(ascii: "&") || bytes[j] == UInt8(ascii: "<") { return nil }
            j += 1
        }
        guard j < bytes.count, bytes[j] == UInt8(ascii: ";"), j > i + 1, bytes[i + 1] != UInt8(ascii: "#") else { return nil }
        return (String(decoding: bytes[(i + 1)..<j], as: UTF8.self), j + 1)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        return i
    }
}
