import Catalog
import Geometry
import ImageCodecs
import Raster
import Runtime
import Testing
import TestSupport

/// One random edit of `bytes`: flip, delete, insert a JSON-significant byte, duplicate or
/// truncate.
func mutate(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
    var b = bytes
    let alphabet = Array("{}[]\",:-.0123456789eEtrufalsn \\\n\u{7F}".utf8) + [0xC3, 0xE6, 0xFF, 0x00]
    for _ in 0..<Int.random(in: 1...3, using: &rng) {
        guard !b.isEmpty else { b = [alphabet.randomElement(using: &rng)!]; continue }
        let i = Int.random(in: 0..<b.count, using: &rng)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: b[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        case 1: b.removeSubrange(i..<min(b.count, i + Int.random(in: 1...40, using: &rng)))
        case 2: b.insert(alphabet.randomElement(using: &rng)!, at: i)
        case 3:
            let j = min(b.count, i + Int.random(in: 1...80, using: &rng))
            b.insert(contentsOf: b[i..<j], at: Int.random(in: 0...b.count, using: &rng))
        case 4: b[i] = alphabet.randomElement(using: &rng)!
        default: b.removeSubrange(i...)
        }
    }
    return b
}

@Suite struct FuzzTests {
    @Test func mutatedManifestsParseOrGiveAPlacedError() throws {
        let original = try FileIO.readAll(path: shippedManifestPath)
        var rng = SeededGenerator(seed: 0x6C1D_E000)
        var parsed = 0, rejected = 0
        for _ in 0..<2000 {
            let bytes = mutate(original, &rng)
            do {
                let m = try Manifest.parse(bytes, path: "fuzz.json")
                // What parses obeys the manifest's own rules.
                for s in m.screens where s.kind == .pages { #expect((1...10_000).contains(s.count ?? 0)) }
                parsed += 1
            } catch {
                #expect(error.path == "fuzz.json")
                #expect(!error.message.isEmpty)
                rejected += 1
            }
        }
        // Both outcomes occur, so the mutations reach past the syntax.
        #expect(parsed > 50 && rejected > 500, "parsed \(parsed), rejected \(rejected)")
    }

    @Test func mutatedScriptsParseOrNameTheLine() throws {
        let script = """
            {"t":0,"touch":"down","id":0,"x":640,"y":600}
            {"t":16,"touch":"move","id":0,"x":640,"y":560}
            {"t":32,"touch":"move","id":0,"x":640,"y":420}
            {"t":100,"touch":"up","id":0,"x":640,"y":200}
            {"t":120,"touch":"down","id":1,"x":10,"y":20}
            {"t":130,"touch":"cancel","id":1}
            {"t":200,"key":"PageDown"}
            {"t":300,"wheel":{"dx":0,"dy":-120},"x":640,"y":400}
            {"t":310,"pointer":"move","x":5,"y":6}
            {"t":320,"pointer":"press","button":272,"x":5,"y":6}
            {"t":330,"pointer":"release","x":5,"y":6}
            # a comment
            {"t":1500,"screenshot":"after-flick"}
            {"t":1500,"state":"s1"}
            """
        let original = Array(script.utf8)
        let lineCount = script.split(separator: "\n", omittingEmptySubsequences: false).count
        var rng = SeededGenerator(seed: 42)
        var parsed = 0, rejected = 0
        for _ in 0..<3000 {
            let bytes = mutate(original, &rng)
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let s = try InputScript.parse(text)
                // Times never go backwards and names stay plain.
                #expect(zip(s.entries, s.entries.dropFirst()).allSatisfy { $0.t <= $1.t })
                for e in s.entries {
                    if case let .screenshot(name) = e.action { #expect(!name.contains("/")) }
                    if case let .state(name) = e.action { #expect(!name.contains("/")) }
                }
                parsed += 1
            } catch {
                #expect(error.line >= 1 && error.line <= lineCount + 400)
                #expect(error.description.hasPrefix("line \(error.line): "))
                rejected += 1
            }
        }
        #expect(parsed > 50 && rejected > 1000, "parsed \(parsed), rejected \(rejected)")
    }
}
