#if canImport(Glibc)
import Glibc
#endif
import AppContract
import Geometry
import ImageCodecs
import Raster
import TestSupport
import Testing
@testable import UI
@testable import Video

/// VideoView on the virtual clock: the frame shown at each time is the clip's at that time, so
/// its screenshots are goldens; bad and hostile files fail with a message and nothing else stops.
@Suite struct VideoTests {
    /// The catalog's attract loop: 3 s of 1280 × 720 H.264 (Constrained Baseline) at 30 frames a second, a key frame
    /// each second, a ball sweeping across.
    static let clip = testsDirectory + "/../Board/content/attract.mp4"

    @Test func aPlayingClipShowsItsFrameAtEachTimeAndLoopsExactly() throws {
        let video = VideoView(Self.clip, id: "clip", contentMode: .fill, loops: true)
        let w = try makeWindow(video, width: 480, height: 320)
        let first = w.frames(from: 0, to: 0.5)
        // decodebin's choice, which the log names: an H.264 decoder (a hardware one where a
        // board has it: GStreamer ranks those first).
        let chosen = video.decoder?.decoderName ?? "none"
        #expect((chosen.hasPrefix("decoder ") || chosen.hasPrefix("hardware decoder ")) && chosen.contains("h264"), "\(chosen)")
        let half = PixelBuffer(copying: first.span)
        // Screenshots are compared through PNG, so a frame's pixels are what the file holds:
        // exact, as the decoder and the conversion are the same on every machine.
        assertGolden(half, suite: "Video", name: "clip-0.5s-fill-480x320")
        let s = w.state(at: 0.5, frameNumber: 0)
        #expect(s.videos.map(\.state) == ["playing"])
        #expect(s.videos.first?.position == 0.5 && s.videos.first?.duration == 3.0)
        assertGolden(w.frames(from: 0.5, to: 2.0), suite: "Video", name: "clip-2.0s-fill-480x320")
        // One loop later the same frame shows: the clip started again from its first frame.
        let again = w.frames(from: 2.0, to: 3.5)
        #expect(compare(again, half).mismatches == 0)
        // A window that jumps straight to 2 s (a seek to the key frame and on) shows the same.
        let jumped = try makeWindow(VideoView(Self.clip, contentMode: .fill), width: 480, height: 320)
        _ = jumped.frames(from: 0, to: 0)
        #expect(compare(jumped.fullRedraw(at: 2.0), w.fullRedraw(at: 5.0)).mismatches == 0)
    }

    @Test func playPauseSeekAndTheEnd() throws {
        let video = VideoView(Self.clip, id: "clip", playing: false)
        var ended = 0
        video.onEnd = { ended += 1 }
        let w = try makeWindow(video, width: 320, height: 180)
        w.frames(from: 0, to: 0.5)
        #expect(video.playbackState == .paused && video.position == 0)
        #expect(w.isStill(at: 0.5), "a paused clip does not keep the loop drawing")
        video.play()
        w.frames(from: 0.5, to: 1.5)
        #expect(video.position == 1.0)
        video.pause()
        w.frames(from: 1.5, to: 2.0)
        #expect(video.position == 1.0 && video.playbackState == .paused)
        video.seek(to: 2.5)
        video.play()
        w.frames(from: 2.0, to: 3.0)
        #expect(video.playbackState == .ended && ended == 1 && video.position == 3.0)
        #expect(w.state(at: 3.0, frameNumber: 0).videos.first?.state == "ended")
        video.play()
        #expect(video.playbackState == .playing && video.position == 0, "played again from the start")
    }

    @Test func onlyTheVideosRectangleIsRedrawn() throws {
        let video = VideoView(Self.clip, loops: true, width: 160, height: 90)
        let w = try makeWindow(Stack(.vertical, children: [video, Spacer()]), width: 400, height: 400)
        w.frames(from: 0, to: 0.5)
        let damage = w.render(into: PixelBuffer(width: 400, height: 400), at: 0.5 + 1.0 / 30)
        #expect(!damage.isEmpty)
        // Its 160 × 90 points and the pixel row and column its edges may touch.
        #expect(damage.bounds.maxY <= 91 && damage.bounds.maxX <= 161)
    }

    /// A clip under an opaque view (the catalog's cards under its attract loop) takes no frames
    /// and keeps no loop drawing; a see-through cover, or one whose rounded corners leave the
    /// clip's corners in sight, does not hide it; uncovered, it shows the clip at its clock's time.
    @Test func aClipUnderAnOpaqueViewTakesNoFrames() throws {
        func scene(coverHidden: Bool) -> (VideoView, Box, Overlay) {
            let video = VideoView(Self.clip, id: "clip", loops: true, width: 160, height: 90)
            // The cover (75, 40, 170 × 100) holds the clip (80, 45, 160 × 90); with 40-point
            // corners the clip's corners, 49.5 points from their arcs' centres, show.
            let cover = Box(id: "cover", fill: Color(rgb: 0x202020), width: 170, height: 100)
            cover.isHidden = coverHidden
            return (video, cover, Overlay(alignment: .center, firstFills: false, children: [video, cover]))
        }
        let (video, cover, root) = scene(coverHidden: false)
        let w = try makeWindow(root, width: 320, height: 180)
        w.frames(from: 0, to: 0.5)
        #expect(w.animatingViews(at: 0.5).isEmpty && w.isStill(at: 0.5), "covered, the clip keeps no loop drawing")
        cover.fill = Color(rgb: 0x202020).withOpacity(0.5)
        w.frames(from: 0.5, to: 1.0)
        #expect(w.animatingViews(at: 1.0).contains { $0 === video }, "a see-through cover leaves it playing")
        cover.fill = Color(rgb: 0x202020)
        cover.cornerRadius = 40
        w.frames(from: 1.0, to: 1.2)
        #expect(w.animatingViews(at: 1.2).contains { $0 === video }, "rounded corners over the clip's corners leave it playing")
        cover.cornerRadius = 0
        w.frames(from: 1.2, to: 1.5)
        #expect(w.animatingViews(at: 1.5).isEmpty)
        cover.isHidden = true
        let shown = w.frames(from: 1.5, to: 2.0)
        #expect(video.position == 2.0 && video.playbackState == .playing)
        let (_, _, uncovered) = scene(coverHidden: true)
        let fresh = try makeWindow(uncovered, width: 320, height: 180)
        #expect(compare(shown, fresh.frames(from: 0, to: 2.0)).mismatches == 0, "the clip at 2 s, as a window that never covered it shows")
    }

    /// Each file fails with its reason in the view, the state and the log, while the window's
    /// frames go on to 4 s.
    @Test(arguments: HostileClip.allCases)
    func hostileFilesFailWithAMessage(_ kind: HostileClip) throws {
        let folder = try makeTemporaryFolder(prefix: "glide-video")
        let path = try kind.make(from: Self.clip, in: folder)
        let video = VideoView(path, id: "clip", loops: true)
        let w = try makeWindow(video, width: 320, height: 240)
        w.frames(from: 0, to: 0.5)
        if kind == .replacedWhilePlaying || kind == .truncatedWhilePlaying { try kind.change(path, original: Self.clip) }
        w.frames(from: 0.5, to: 4)
        let state = w.state(at: 4, frameNumber: 0).videos.first
        switch kind {
        case .replacedWhilePlaying:
            // The open file is still the old one: it plays on, and the next view plays the new.
            #expect(state?.state == "playing")
        case .cutInTheMiddle:
            // What was there plays and loops (the last frame held until the loop starts again),
            // or, where the cut leaves no frame after a seek, it fails saying so.
            #expect(state?.state == "playing" || state?.error?.contains("ends early") == true, "\(state?.error ?? "no error")")
        default:
            #expect(state?.state == "failed")
            #expect(kind.expected.contains { state?.error?.contains($0) == true }, "\(kind): \(state?.error ?? "no error")")
        }
    }

    /// decodebin takes elements out on GStreamer's own threads, which may run after the decoder
    /// is dropped (a crash seen in one run of fifteen): its signal handlers hold what they are
    /// given until GLib is done with them, and let it go once the pipeline is gone. Clips dropped
    /// as they play, fail and end, many times over.
    @Test func droppedDecodersLeaveTheirHandlersNothingFreedAndNothingHeld() throws {
        let folder = try makeTemporaryFolder(prefix: "glide-video-drop")
        let kinds: [HostileClip] = [.cutInTheMiddle, .unknownCodec, .notAVideo, .cutBeforeItsIndex, .truncatedWhilePlaying]
        let paths = try kinds.map { try $0.make(from: Self.clip, in: folder) }
        var handlerData: [Weak] = []
        for round in 0..<8 {
            for (kind, path) in zip(kinds, paths) {
                if kind == .truncatedWhilePlaying { try FileIO.writeAll(try FileIO.readAll(path: Self.clip), path: path) }
                let decoder = try VideoDecoder(path: path)
                handlerData += [Weak(decoder.sizeGuard), Weak(decoder.chosenDecoder)]
                // A file that never gives a frame would hold the wait for its whole patience.
                _ = decoder.frame(at: 0, waiting: round % 2 == 0 && kind != .cutBeforeItsIndex)
                if kind == .truncatedWhilePlaying { try kind.change(path, original: Self.clip) }
                _ = decoder.frame(at: 0.1 * Double(round), waiting: false)
            }
        }
        // GStreamer finalises a bin when its own threads let it go: soon, not at once.
        let deadline = monotonicSeconds() + 10
        while handlerData.contains(where: { $0.object != nil }), monotonicSeconds() < deadline { usleep(20_000) }
        #expect(handlerData.filter { $0.object != nil }.count == 0, "handlers' data still held after their pipelines were dropped")
    }

    /// How the log names the decoder decodebin kept: a hardware one as such, and only video
    /// decoders (demuxers, parsers and sound decoders are plugged in beside them).
    @Test func theLogNamesVideoDecodersAndSaysWhichAreHardware() {
        #expect(
            ChosenDecoder.label(factoryClass: "Codec/Decoder/Video/Hardware", name: "v4l2slh264dec") == "hardware decoder v4l2slh264dec")
        #expect(ChosenDecoder.label(factoryClass: "Codec/Decoder/Video", name: "avdec_h264") == "decoder avdec_h264")
        #expect(ChosenDecoder.label(factoryClass: "Codec/Decoder/Audio", name: "opusdec") == nil)
        #expect(ChosenDecoder.label(factoryClass: "Codec/Demuxer", name: "matroskademux") == nil)
        #expect(ChosenDecoder.label(factoryClass: "Codec/Parser/Converter/Video", name: "h264parse") == nil)
    }

    @Test func aMissingDecoderNamesItsDebianPackage() {
        let h265 = "gstreamer|1.0|glide|H.265 (Main Profile) decoder|decoder-video/x-h265, stream-format=(string)hvc1"
        #expect(
            MissingPlugin.message(description: "H.265 (Main Profile) decoder", detail: h265)
                == "GStreamer has no H.265 (Main Profile) decoder (Debian: apt-get install gstreamer1.0-libav)")
        #expect(
            MissingPlugin.message(description: "AV1 decoder", detail: "gstreamer|1.0|glide|AV1 decoder|decoder-video/x-av1")
                .hasSuffix("(Debian: apt-get install gstreamer1.0-plugins-bad)"))
        #expect(MissingPlugin.message(description: nil, detail: "garbage").hasSuffix("(no Debian package is known to have one)"))
    }
}

/// Files a kiosk may be given by mistake or by an attacker, made from the clip.
enum HostileClip: String, CaseIterable, Sendable {
    case networkURL, missing, notAVideo, cutBeforeItsIndex, cutInTheMiddle, hugeFrames, unknownCodec, replacedWhilePlaying,
        truncatedWhilePlaying

    /// Words the failure must contain, one of these.
    var expected: [String] {
        switch self {
        case .networkURL: ["network address"]
        case .missing: ["No such file"]
        case .notAVideo: ["Could not determine type of stream"]
        // The demuxer says so, or (seen once under load) leaves the first frame to the clock.
        case .cutBeforeItsIndex: ["This file is incomplete", "no frame came"]
        case .hugeFrames: ["30000 × 30000"]
        case .unknownCodec: ["GStreamer has no video/x-gst-fourcc-qqqq decoder"]
        case .truncatedWhilePlaying: ["ends early"]
        case .cutInTheMiddle, .replacedWhilePlaying: []
        }
    }

    func make(from clip: String, in folder: String) throws -> String {
        let path = folder + "/\(rawValue).mp4"
        var bytes = try FileIO.readAll(path: clip)
        let sampleEntry = Self.find(Array("avc1".utf8), in: bytes, after: Self.find(Array("stsd".utf8), in: bytes, after: 0))
        switch self {
        case .networkURL: return "https://example.com/clip.mp4"
        case .missing: return folder + "/nothing-here.mp4"
        case .notAVideo: bytes = Array("this is a text file, not a video\n".utf8)
        case .cutBeforeItsIndex: bytes = Array(bytes.prefix(400))
        case .cutInTheMiddle: bytes = Array(bytes.prefix(bytes.count / 2))
        case .hugeFrames:
            // The sample entry's width and height (16 bits each, 24 bytes after its type).
            for (i, b) in [0x75, 0x30, 0x75, 0x30].enumerated() { bytes[sampleEntry + 28 + i] = UInt8(b) }
        case .unknownCodec:
            for (i, b) in "qqqq".utf8.enumerated() { bytes[sampleEntry + i] = b }
        case .replacedWhilePlaying, .truncatedWhilePlaying: break
        }
        try FileIO.writeAll(bytes, path: path)
        return path
    }

    /// Done to the file while it plays.
    func change(_ path: String, original: String) throws {
        if self == .replacedWhilePlaying {
            try FileIO.writeAll(Array("replaced".utf8), path: path)
        } else {
            #expect(truncate(path, 3000) == 0)
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], after start: Int) -> Int {
        var i = start
        while i + needle.count <= bytes.count {
            if Array(bytes[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return 0
    }
}

/// On a board (pictures and clips decoded in the background) the loop never waits for a frame:
/// the newest decoded one shows, and the clip moves on. The loop runs at 60 Hz until three
/// different pictures showed: GStreamer decodes at the machine's pace (two seconds showed only
/// two on a loaded CI machine), so the deadline only bounds a clip that never moves.
@Suite struct LiveVideoTests {
    @Test func framesArriveWithoutTheLoopWaiting() throws {
        let video = VideoView(VideoTests.clip, id: "clip", loops: true)
        let w = try makeBoardWindow(video, width: 320, height: 180)
        let buffer = PixelBuffer(width: 320, height: 180)
        var pictures = Set<[UInt32]>()
        var frames = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while pictures.count < 3 && ContinuousClock.now < deadline {
            let t = Double(frames) / 60
            _ = w.timers.runDue(upTo: t)
            _ = w.render(into: buffer, at: t)
            if frames % 30 == 29 { pictures.insert((0..<180).map { buffer[160, $0] } + (0..<320).map { buffer[$0, 90] }) }
            usleep(16_000)
            frames += 1
        }
        #expect(video.playbackState == .playing)
        #expect(pictures.count >= 3, "the picture moves: \(pictures.count) different in \(frames / 30) looks over \(frames) frames")
    }
}

/// A window that decodes pictures and clips in the background, as a board's does.
func makeBoardWindow(_ root: View, width: Int, height: Int) throws -> Window {
    let w = try makeWindow(root, width: width, height: height)
    var settings = AppSettings()
    settings.decodesImagesInBackground = true
    w.apply(settings)
    return w
}

private struct Weak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
