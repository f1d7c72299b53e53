import CRsvg
import SharedLibraries

#if canImport(Glibc)
import Glibc
#endif

/// An SVG's filter primitives, read with libxml2 before librsvg renders them, and what they
/// would cost at a rendered size. librsvg 2.54 cannot be stopped once it draws: a 600 x 400
/// feMorphology took 11 s at the 4x a zoom renders, 1,000 turbulence octaves 11 s, and a
/// feConvolveMatrix of order 22 aborts the process as it is parsed. So the cost is estimated first and a picture
/// past the limit is refused, or rendered less enlarged.
struct SVGFilters {
    struct Primitive {
        var name: String
        /// Its radius (feMorphology), order (feConvolveMatrix) or octaves (feTurbulence).
        var numbers: [Double]
        /// In fractions of the filtered element's box (primitiveUnits="objectBoundingBox").
        var boxUnits: Bool
    }
    private(set) var primitives: [Primitive] = []
    /// The largest scale any element's transforms, with its ancestors', apply to its content.
    private(set) var magnification = 1.0

    /// The most entries of a convolution kernel librsvg 2.54 reads: past 400 (order 20 x 20) it
    /// panics while parsing ("Data storage buffer dimension mismatch") and aborts the process.
    /// It does so too for a `kernelMatrix` of 400 numbers or more that its order does not match
    /// (order 3 or 15 with 400; 399 were read), which the fuzzer found.
    static let maxConvolveEntries = 400

    init(reading bytes: [UInt8]) throws(ImageCodecError) {
        guard !bytes.isEmpty else { return }
        guard let xml = LibXML.shared else { throw .invalidSVG(message: LibXML.missing) }
        guard bytes.count <= Int(Int32.max),
            let reader = bytes.withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { xml.readerForMemory($0.baseAddress, Int32($0.count), nil, nil, LibXML.options) }
            })
        else { throw .invalidSVG(message: "libxml2 could not read it") }
        defer { xml.freeReader(reader) }
        var scales = [1.0]  // by depth: the scale an element at depth d gives its content is scales[d + 1]
        var boxUnits = false
        while true {
            let step = xml.read(reader)
            if step == 0 { break }
            guard step == 1 else { throw .invalidSVG(message: "its XML is not well formed") }
            guard xml.nodeType(reader) == 1 else { continue }  // elements only
            let depth = max(0, Int(xml.depth(reader)))
            if scales.count > depth + 1 { scales.removeLast(scales.count - depth - 1) }
            while scales.count < depth + 1 { scales.append(scales.last ?? 1) }
            let name = xml.string(xml.localName(reader)) ?? ""
            var scale = scales[depth]
            for attribute in ["transform", "patternTransform"] {
                if let text = xml.attribute(reader, attribute) { scale *= Self.scale(ofTransform: text) }
            }
            scales.append(scale)
            magnification = max(magnification, scale)
            if name == "filter" { boxUnits = xml.attribute(reader, "primitiveUnits") == "objectBoundingBox" }
            guard name.hasPrefix("fe") else { continue }
            let numbers = Self.numberAttribute[name].flatMap { xml.attribute(reader, $0) }.map(Self.numbers) ?? []
            if name == "feConvolveMatrix" { try Self.checkConvolution(order: numbers, kernel: xml.attribute(reader, "kernelMatrix")) }
            primitives.append(Primitive(name: name, numbers: numbers, boxUnits: boxUnits))
        }
    }

    /// Refuses a convolution librsvg 2.54 would abort on: an order past `maxConvolveEntries`
    /// entries, or a kernel of that many numbers or more that the order does not match.
    private static func checkConvolution(order: [Double], kernel: String?) throws(ImageCodecError) {
        let entries = convolveEntries(order)
        guard entries <= Double(maxConvolveEntries) else {
            throw .svgTooCostly(
                reason: "its feConvolveMatrix of order \(describe(order)) is larger than librsvg reads safely "
                    + "(\(maxConvolveEntries) entries at most)")
        }
        let count = kernel.map { numbers($0).count } ?? 0
        if count >= maxConvolveEntries, Double(count) != entries {
            throw .svgTooCostly(
                reason: "its feConvolveMatrix of order \(describe(order.isEmpty ? [3] : order)) has \(count) kernelMatrix numbers, "
                    + "which librsvg cannot read safely")
        }
    }

    /// A convolution's kernel entries: its order's two numbers multiplied (3 x 3 by default).
    private static func convolveEntries(_ order: [Double]) -> Double {
        let ox = order.first ?? 3, oy = order.count > 1 ? order[1] : ox
        return ox * oy
    }

    /// The attribute whose numbers set a primitive's cost.
    private static let numberAttribute = ["feMorphology": "radius", "feConvolveMatrix": "order", "feTurbulence": "numOctaves"]

    /// Why the filters cannot be drawn at `width` x `height` pixels, `scale` of them to a user
    /// unit (`userSize`: the larger side in user units), within `limit` steps; nil when they can.
    func refusal(width: Int, height: Int, scale: Double, userSize: Double, limit: Int) -> ImageCodecError? {
        let area = Double(width) * Double(height)
        var total = 0.0
        var costliest = (work: 0.0, what: "")
        for primitive in primitives {
            let perUnit = scale * magnification * (primitive.boxUnits ? userSize : 1)
            let work = area * Self.stepsPerPixel(primitive, pixelsPerUnit: perUnit, width: width, height: height)
            total += work
            if work > costliest.work { costliest = (work, "\(primitive.name) (\(Self.describe(primitive.numbers)))") }
        }
        // Not finite or not a number (an attribute Swift cannot read) is refused, never let through.
        guard !(total <= Double(limit)) else { return nil }
        return .svgTooCostly(
            reason: "its filters would take about \(Self.describe([total])) steps at \(width) x \(height) pixels, mostly its "
                + "\(costliest.what); the limit is \(Self.describe([Double(limit)])), about a second")
    }

    /// Steps per rendered pixel, measured against librsvg 2.54: a morphology kernel's samples,
    /// a convolution's (twice as slow), each turbulence octave (20 times), and a few for the rest.
    private static func stepsPerPixel(_ primitive: Primitive, pixelsPerUnit: Double, width: Int, height: Int) -> Double {
        let numbers = primitive.numbers
        switch primitive.name {
        case "feMorphology":
            func side(_ radius: Double, _ size: Int) -> Double { min(2 * max(0, radius) * pixelsPerUnit + 1, Double(size)) }
            let rx = numbers.first ?? 0, ry = numbers.count > 1 ? numbers[1] : rx
            guard rx.isFinite, ry.isFinite else { return .infinity }
            return max(4, side(rx, width) * side(ry, height))
        case "feConvolveMatrix": return max(4, 2 * convolveEntries(numbers))
        case "feTurbulence": return 20 * max(1, numbers.first ?? 1)
        default: return 4
        }
    }

    /// The numbers of an attribute (`radius="200"`, `order="3 5"`); one not finite stays so.
    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map { Double($0) ?? .nan }
    }

    private static func describe(_ numbers: [Double]) -> String {
        numbers.map { n in
            guard n.isFinite else { return "\(n)" }
            if abs(n) < 1e6 { return n == n.rounded() ? "\(Int(n))" : "\(n)" }
            let exponent = Int(log10(abs(n)))
            return "\(Int((n / pow(10, Double(exponent))).rounded()))e\(exponent)"
        }.joined(separator: " x ")
    }
}

extension SVGFilters {
    /// The largest factor by which a transform list (`translate(5) scale(2) rotate(30)`)
    /// stretches a length: its linear part's largest singular value. One that does not parse
    /// counts as 1, as librsvg ignores it.
    static func scale(ofTransform text: String) -> Double {
        var m = (a: 1.0, b: 0.0, c: 0.0, d: 1.0)
        for call in text.split(separator: ")") {
            let parts = call.split(separator: "(", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingSpacesAndCommas, n = numbers(String(parts[1]))
            let f: (a: Double, b: Double, c: Double, d: Double)
            switch name {
            case "matrix" where n.count == 6: f = (n[0], n[1], n[2], n[3])
            case "scale" where !n.isEmpty: f = (n[0], 0, 0, n.count > 1 ? n[1] : n[0])
            case "skewX" where !n.isEmpty: f = (1, 0, tan(n[0] * .pi / 180), 1)
            case "skewY" where !n.isEmpty: f = (1, tan(n[0] * .pi / 180), 0, 1)
            default: continue  // translate and rotate stretch nothing
            }
            m = (m.a * f.a + m.c * f.b, m.b * f.a + m.d * f.b, m.a * f.c + m.c * f.d, m.b * f.c + m.d * f.d)
        }
        let frobenius = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d, det = m.a * m.d - m.b * m.c
        let largest = ((frobenius + (max(0, frobenius * frobenius - 4 * det * det)).squareRoot()) / 2).squareRoot()
        return largest.isNaN ? .infinity : max(1, largest)
    }
}

extension Substring {
    fileprivate var trimmingSpacesAndCommas: String {
        String(drop { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .trimmingTrailing { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }
}

extension String {
    fileprivate func trimmingTrailing(_ isSpace: (Character) -> Bool) -> String {
        var text = self
        while let last = text.last, isSpace(last) { text.removeLast() }
        return text
    }
}

/// libxml2's reader, loaded once with librsvg (which brings libxml2 along).
struct LibXML: @unchecked Sendable {
    let readerForMemory: GlideXmlReaderForMemory
    let read: GlideXmlReaderStep
    let nodeType: GlideXmlReaderStep
    let depth: GlideXmlReaderStep
    let localName: GlideXmlReaderText
    let moveToAttribute: GlideXmlReaderMoveToAttribute
    let moveToElement: GlideXmlReaderStep
    let value: GlideXmlReaderText
    let freeReader: GlideXmlFreeTextReader

    static let shared: LibXML? = load()
    static let missing = "SVG pictures need libxml2, which this system lacks (Debian: apt-get install libxml2)"
    /// Entities substituted (their size is bounded first, by `SVGEntities`), nothing fetched
    /// from the network, no messages on stderr: XML_PARSE_NOENT | NONET | NOERROR | NOWARNING.
    static let options: Int32 = 2 | 2048 | 32 | 64

    private static func load() -> LibXML? {
        guard let library = try? SharedLibrary("libxml2.so.2", package: "libxml2"),
            let initialise = try? library.function("xmlInitParser", GlideXmlInitParser.self)
        else { return nil }
        // Once, here: libxml2 2.9 sets itself up unguarded on first use, and pictures decode on all cores.
        initialise()
        return try? LibXML(
            readerForMemory: library.function("xmlReaderForMemory", GlideXmlReaderForMemory.self),
            read: library.function("xmlTextReaderRead", GlideXmlReaderStep.self),
            nodeType: library.function("xmlTextReaderNodeType", GlideXmlReaderStep.self),
            depth: library.function("xmlTextReaderDepth", GlideXmlReaderStep.self),
            localName: library.function("xmlTextReaderConstLocalName", GlideXmlReaderText.self),
            moveToAttribute: library.function("xmlTextReaderMoveToAttribute", GlideXmlReaderMoveToAttribute.self),
            moveToElement: library.function("xmlTextReaderMoveToElement", GlideXmlReaderStep.self),
            value: library.function("xmlTextReaderConstValue", GlideXmlReaderText.self),
            freeReader: library.function("xmlFreeTextReader", GlideXmlFreeTextReader.self))
    }

    func string(_ text: UnsafePointer<UInt8>?) -> String? { text.map { String(cString: $0) } }

    /// The current element's attribute `name` (no namespace), entities substituted.
    func attribute(_ reader: UnsafeMutableRawPointer, _ name: String) -> String? {
        guard name.withCString({ moveToAttribute(reader, UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self)) }) == 1 else {
            return nil
        }
        defer { _ = moveToElement(reader) }
        return string(value(reader))
    }
}
