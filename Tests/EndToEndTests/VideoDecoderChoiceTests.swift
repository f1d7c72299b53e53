#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ImageCodecs
import TestSupport
import Testing

/// A board's hardware decoders are used because GStreamer ranks them first: the v4l2 decoders
/// register one above the software ones' PRIMARY (256). glide takes whatever decodebin picks and
/// says which in its log. No hardware decoder here, so the real glide binary is run with a
/// software decoder raised to that rank (GStreamer's own GST_PLUGIN_FEATURE_RANK), as a board's
/// driver would raise its own.
@Suite struct VideoDecoderChoiceTests {
    func playingLine(environment: String) throws -> String {
        try #require(access(glideBinary, F_OK) == 0, "build the glide binary first (swift build --product glide)")
        let dir = "/tmp/glide-e2e-\(getpid())-decoder-\(environment.isEmpty ? "default" : "ranked")"
        // The clips' catalog with a VP8 WebM as its attract loop and in its cards.
        let catalog = String(decoding: try FileIO.readAll(path: repositoryRoot + "/Board/content/video.json"), as: UTF8.self)
        let manifest = catalog.replacing("\"attract.mp4\"", with: "\"\(testsDirectory)/Clips/ball-and-tone.webm\"")
            .replacing("\"images/", with: "\"\(repositoryRoot)/Board/content/images/")
        var script = Script()
        script.wait(500)
        script.state("clip")
        defer {
            for f in ["clip.json", "final.json", "final.png"] { _ = unlink("\(dir)/\(f)") }
            _ = rmdir(dir); _ = unlink(dir + ".json"); _ = unlink(dir + ".jsonl")
        }
        try FileIO.writeAll(Array(manifest.utf8), path: dir + ".json")
        try FileIO.writeAll(Array(script.text.utf8), path: dir + ".jsonl")
        let r = shell(
            "\(environment) \(glideBinary) run --backend headless --app catalog --manifest \(dir).json --size 320x480 "
                + "--script \(dir).jsonl --out \(dir)", name: "decoder")
        #expect(r.status == 0, "\(r.stderr)")
        return r.stderr.split(separator: "\n").first { $0.contains("ball-and-tone.webm: playing") }.map(String.init) ?? r.stderr
    }

    @Test func theDecoderGStreamerRanksFirstPlaysTheClipAndTheLogNamesIt() throws {
        // By rank: vp8dec (PRIMARY) before libav's avdec_vp8 (MARGINAL).
        let plain = try playingLine(environment: "")
        #expect(plain.hasSuffix("playing, 320 × 180 (decoder vp8dec)"), "\(plain)")
        // avdec_vp8 at a v4l2 decoder's rank: decodebin takes it instead.
        let ranked = try playingLine(environment: "GST_PLUGIN_FEATURE_RANK=avdec_vp8:257")
        #expect(ranked.hasSuffix("playing, 320 × 180 (decoder avdec_vp8)"), "\(ranked)")
    }
}
