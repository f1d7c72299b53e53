import FoundationEssentials
import Glibc
import Raster
import Testing
@testable import ImageCodecs

/// SVG through librsvg: exact colours, rendered at the drawn size (crisp enlarged), and hostile
/// documents refused or harmless.
@Suite struct SVGTests {
    /// 40 x 20: red left half, blue right half.
    static let halves = Array(
        """
        <?xml version="1.0"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">
          <rect x="0" y="0" width="20" height="20" fill="#ff0000"/>
          <rect x="20" y="0" width="20" height="20" fill="#0000ff"/>
        </svg>
        """.utf8)

    @Test func rendersAtItsOwnSizeWithExactColours() throws {
        #expect(Image.Format(sniffing: Self.halves) == .svg)
        let picture = try Image.decode(Self.halves)
        #expect(picture.width == 40 && picture.height == 20)
        #expect(picture[10, 10] == 0xFFFF_0000 && picture[30, 10] == 0xFF00_00FF)
    }

    @Test func isRenderedAtTheSizeItIsDrawnAt() throws {
        // Four times its size, for a zoom: the edge between the halves stays one pixel sharp.
        let large = try Image.decode(Self.halves, halvings: { _, _ in -2 })
        #expect(large.width == 40 && large.height == 20 && large.halvings == -2)
        #expect(large.pixels.width == 160 && large.pixels.height == 80)
        #expect(large.pixels[79, 40] == 0xFFFF_0000 && large.pixels[80, 40] == 0xFF00_00FF)
        // Further than that it is not enlarged; halved, it is rendered small, not reduced.
        #expect(try Image.decode(Self.halves, halvings: { _, _ in -5 }).pixels.width == 160)
        let small = try Image.decode(Self.halves, halvings: { _, _ in 1 })
        #expect(small.pixels.width == 20 && small.pixels.height == 10 && small.halvings == 1)
        #expect(small.pixels[4, 5] == 0xFFFF_0000 && small.pixels[15, 5] == 0xFF00_00FF)
    }

    @Test func aViewBoxAloneGivesTheSize() throws {
        let svg = Array(
            #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 10"><rect width="30" height="10" fill="lime"/></svg>"#.utf8)
        let picture = try Image.decode(svg)
        #expect(picture.width == 30 && picture.height == 10 && picture[15, 5] == 0xFF00_FF00)
    }

    @Test func malformedAndSizelessDocumentsAreRefusedClearly() {
        let cases: [(String, String)] = [
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect"#, "invalid SVG: "),
            (#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>"#, "it has no size"),
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="10"/>"#, "is not a picture's"),
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"/>"#, "exceeds the decode limits"),
        ]
        for (text, message) in cases {
            do {
                _ = try Image.decode(Array(text.utf8))
                Issue.record("accepted \(text)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func aBillionLaughsIsRefused() {
        var entities = #"<!ENTITY l0 "ha">"#
        for i in 1...9 { entities += "<!ENTITY l\(i) \"" + String(repeating: "&l\(i - 1);", count: 10) + "\">" }
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE svg [\(entities)]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&l9;</text></svg>
            """
        #expect(throws: ImageCodecError.self) { try Image.decode(Array(bomb.utf8)) }
    }

    @Test func otherFilesAreNeverRead() throws {
        // An opaque picture on disk, referenced by absolute path and file URL: not loaded.
        let path = "/tmp/glide-svg-red-\(getpid()).png"
        try PNG.write(PixelBuffer(width: 4, height: 4, fill: PremultipliedColor(argb: 0xFFFF_0000)), to: path, alpha: .opaque)
        func drawn(_ href: String) throws -> UInt32 {
            let svg =
                #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8">"#
                + #"<image x="0" y="0" width="8" height="8" xlink:href="\#(href)"/></svg>"#
            return try Image.decode(Array(svg.utf8))[4, 4]
        }
        for href in [path, "file://" + path] { #expect(try drawn(href) == 0, "\(href) was read") }
        // The same picture inside the document is drawn: the check above can see a picture.
        let inline = "data:image/png;base64," + Data(try FileIO.readAll(path: path)).base64EncodedString()
        #expect(try drawn(inline) == 0xFFFF_0000)
    }

    // MARK: Hostile input, round five (issue 61): pictures that cost too much are refused first

    static func filtered(_ primitive: String, size: String = #"width="600" height="400""#, group: String = "") -> [UInt8] {
        Array(
            (#"<svg xmlns="http://www.w3.org/2000/svg" \#(size)><filter id="f">\#(primitive)</filter>"#
                + #"<g \#(group)><rect width="600" height="400" fill="red" filter="url(#f)"/></g></svg>"#).utf8)
    }

    /// `count` ones, a kernel's numbers.
    static func ones(_ count: Int) -> String { Array(repeating: "1", count: count).joined(separator: " ") }

    /// The refusal's message, and how long it took to come.
    static func refusal(_ svg: [UInt8], halvings: HalvingChoice = { _, _ in 0 }) -> (String, Duration) {
        var message = "accepted"
        let elapsed = ContinuousClock().measure {
            do { _ = try Image.decode(svg, halvings: halvings) } catch { message = "\(error)" }
        }
        return (message, elapsed)
    }

    @Test func anEntityExpandedThousandsOfTimesIsRefusedBeforeParsing() {
        // 9 KB: librsvg laid out its 6 MB of text in 2.2 GB and 11 s.
        let entity = String(repeating: "x", count: 3000), uses = String(repeating: "&e;", count: 2000)
        let bomb =
            #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e "\#(entity)">]>"#
            + #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text y="50">\#(uses)</text></svg>"#
        let (message, elapsed) = Self.refusal(Array(bomb.utf8))
        #expect(message == "SVG refused: its entities add 5994000 bytes to it, past the limit of 65536")
        #expect(elapsed < .seconds(1))
        // Nested: 10 references of 10 of 1,000 bytes is 100 KB, though each level is small.
        let nested =
            #"<!DOCTYPE svg [<!ENTITY a "\#(String(repeating: "y", count: 1000))"><!ENTITY b "\#(String(repeating: "&a;", count: 10))">]>"#
            + #"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><desc>\#(String(repeating: "&b;", count: 10))</desc></svg>"#
        #expect(Self.refusal(Array(nested.utf8)).0.contains("add 99970 bytes"))
        let parameter =
            #"<!DOCTYPE svg [<!ENTITY % p "<!ENTITY q 'x'>"> %p;]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>"#
        #expect(Self.refusal(Array(parameter.utf8)).0.contains("parameter entity"))
    }

    @Test func entitiesAsPicturesUseThemStillWork() throws {
        // Illustrator's way: a namespace and a colour, referenced a few times.
        let svg =
            ##"<!DOCTYPE svg [<!ENTITY ns "http://www.w3.org/2000/svg"><!ENTITY red "#ff0000">]>"##
            + #"<svg xmlns="&ns;" width="10" height="10"><rect width="10" height="10" fill="&red;"/></svg>"#
        #expect(try Image.decode(Array(svg.utf8))[5, 5] == 0xFFFF_0000)
    }

    /// The issue's card picture, 378 bytes: 30 s before the catalog's first screen.
    static let card = Array(
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">
        <filter id="f" x="0" y="0" width="1" height="1"><feMorphology operator="dilate" radius="200"/></filter>
        <rect width="600" height="400" fill="#2a6"/>
        <circle cx="300" cy="200" r="120" fill="#fc3" filter="url(#f)"/>
        <text x="40" y="360" font-size="40" fill="#fff">Card</text>
        </svg>
        """.utf8)

    @Test func filtersTooCostlyToDrawAreRefusedBeforeRendering() {
        // Each of these took librsvg from 11 s to forever at the size a zoom renders, or aborted it.
        let cases: [([UInt8], String)] = [
            (Self.card, "feMorphology (200)"),
            (Self.filtered(#"<feMorphology radius="200"/>"#), "feMorphology (200)"),
            (Self.filtered(#"<feTurbulence baseFrequency="0.05" numOctaves="100000"/>"#), "feTurbulence (100000)"),
            (Self.filtered(#"<feConvolveMatrix order="30" kernelMatrix="1"/>"#), "feConvolveMatrix of order 30"),
            // A kernel longer than its order reads (the fuzzer's find): librsvg 2.54 aborts on it.
            (Self.filtered(#"<feConvolveMatrix order="15" kernelMatrix="\#(Self.ones(400))"/>"#), "order 15 has 400 kernelMatrix numbers"),
            // Small in its own units, large where it is drawn: a transform or a viewBox enlarges it.
            (Self.filtered(#"<feMorphology radius="4"/>"#, group: #"transform="translate(3) scale(50)""#), "feMorphology (4)"),
            (Self.filtered(#"<feMorphology radius="0.5"/>"#, size: #"width="600" height="400" viewBox="0 0 6 4""#), "feMorphology"),
        ]
        for (svg, what) in cases {
            let (message, elapsed) = Self.refusal(svg)
            #expect(message.hasPrefix("SVG refused: its ") && message.contains(what), "\(message)")
            #expect(elapsed < .seconds(1), "\(what) took \(elapsed)")
        }
    }

    @Test func costlyFiltersAreRenderedLessEnlargedForAZoom() throws {
        // A 20-pixel dilation draws at its own size (0.9 s), not at the 4x of a zoom (16 times that).
        let svg = Self.filtered(#"<feMorphology radius="20"/>"#)
        let picture = try Image.decode(svg, halvings: { _, _ in -2 })
        #expect(picture.halvings == 0 && picture.pixels.width == 600)
        // Ordinary effects (a drop shadow) are drawn at every zoom.
        let shadow = Self.filtered(#"<feGaussianBlur stdDeviation="4"/><feOffset dx="2" dy="2"/><feMerge><feMergeNode/></feMerge>"#)
        #expect(try Image.decode(shadow, halvings: { _, _ in -2 }).halvings == -2)
    }
}
