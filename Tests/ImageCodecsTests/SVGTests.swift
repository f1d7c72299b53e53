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
}
