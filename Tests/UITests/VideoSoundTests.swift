#if canImport(Glibc)
import Glibc
#endif
import AppContract
import Raster
import TestSupport
import Testing
@testable import UI
@testable import Video

/// A clip's sound through GStreamer's alsasink: ALSA's `null` device stands for a sound card (it
/// takes the samples at once, as fast as they come), a device name ALSA does not know for a
/// board without one.
@Suite struct VideoSoundTests {
    /// 2 s of a ball (VP8, 320 × 180, 30 frames a second) with a 440 Hz tone (Opus, 48 kHz stereo).
    static let clip = testsDirectory + "/Clips/ball-and-tone.webm"

    /// Pulls frames as a headless loop does until `time`, and returns the last.
    private func frames(_ decoder: VideoDecoder, through time: Double) -> VideoFrame? {
        var last: VideoFrame?
        for n in 0...Int(time * 30) { last = decoder.frame(at: Double(n) / 30, waiting: true) ?? last }
        return last
    }

    /// (Muting is only set here: the null device cannot tell silence from sound.)
    @Test func theSoundPlaysBesideThePicture() throws {
        let decoder = try VideoDecoder(path: Self.clip, sound: "null")
        #expect(decoder.hasSound && decoder.soundFailure == nil)
        let last = try #require(frames(decoder, through: 1.0))
        #expect(last.time == 1.0 && last.pixels.width == 320 && decoder.failure == nil)
        decoder.isMuted = true
        // The null device takes the samples as fast as they come: the tone has reached it.
        let played = try #require(soundPosition(of: decoder, beyond: 0.1))
        #expect(played > 0.1, "the sound device played \(played) s of the tone")
        decoder.isMuted = false
        _ = frames(decoder, through: 1.9)
        #expect(decoder.failure == nil)
    }

    /// A clip without sound, opened with a device: its sound branch stays unlinked and the
    /// picture plays to its end all the same (no stall waiting for sound that never comes).
    @Test func aClipWithoutSoundPlaysWithADevice() throws {
        let decoder = try VideoDecoder(path: VideoTests.clip, sound: "null")
        #expect(decoder.hasSound)
        let last = try #require(frames(decoder, through: 2.9))
        #expect(last.time > 2.8 && decoder.failure == nil)
    }

    /// A device that does not open (a board without a sound card) leaves the clip silent, with
    /// the reason, and the picture plays.
    @Test func aMissingSoundCardLeavesThePictureAlone() throws {
        let decoder = try VideoDecoder(path: Self.clip, sound: "glide_no_such_card")
        #expect(!decoder.hasSound)
        let reason = try #require(decoder.soundFailure)
        #expect(reason.contains("'glide_no_such_card' cannot be used") && reason.contains("without sound"), "\(reason)")
        #expect(frames(decoder, through: 0.5)?.time == 0.5)
    }

    /// Paused, a clip with sound stops its pipeline (or the sound would play on under a still
    /// picture); a seek while paused shows the frame GStreamer prerolls there, then holds.
    @Test func pausingStopsTheSoundAndASeekStillShowsAFrame() throws {
        let decoder = try VideoDecoder(path: Self.clip, sound: "null", playing: false)
        let first = try #require(decoder.frame(at: 0, waiting: true))
        #expect(first.time == 0 && decoder.holdsStill)
        _ = decoder.frame(at: 1.5, waiting: true)
        #expect(decoder.holdsStill)
        // The key frame at or before 1.5 s: the clip has one a second.
        let sought = try #require(decoder.frame(at: 1.5, waiting: true))
        #expect(sought.time == 1.0, "the paused seek showed the frame at \(sought.time) s")
        decoder.setPaused(false)
        #expect(!decoder.holdsStill)
        #expect(frames(decoder, through: 1.9)?.time == 1.9 || decoder.reachedEnd)
    }

    /// On a board an unmuted view opens its clip with sound (silently, with the reason logged,
    /// where the machine has no sound card); unmuting a view opened muted opens it again there.
    @Test func unmutingABoardsClipOpensItWithSound() throws {
        let video = VideoView(Self.clip, id: "clip", loops: true)
        let loop = RealTimeFrames(try makeBoardWindow(video, width: 320, height: 180))
        loop.run { video.decoder != nil && video.position > 0.2 }
        let muted = try #require(video.decoder)
        #expect(!muted.hasSound && muted.soundFailure == nil, "a muted clip asks for no sound device")
        video.isMuted = false
        loop.run { video.decoder.map { $0 !== muted } == true && video.position > 0.4 }
        let unmuted = try #require(video.decoder)
        #expect(unmuted !== muted)
        #expect(unmuted.hasSound || unmuted.soundFailure != nil)
        #expect(video.playbackState == .playing && video.position > 0.4)
    }

    /// A board's clip with sound stops its pipeline when an opaque view covers it and when it
    /// leaves the window (its sound would play on until GStreamer's queues filled), and plays on
    /// when it is uncovered.
    @Test func aClipOutOfSightOrRemovedStopsItsSound() throws {
        let video = VideoView(Self.clip, id: "clip", loops: true, muted: false)
        video.soundDevice = "null"
        let cover = Box(id: "cover", fill: Color(rgb: 0x101010), width: 320, height: 180)
        cover.isHidden = true
        let loop = RealTimeFrames(try makeBoardWindow(Overlay(children: [video, cover]), width: 320, height: 180))
        // Its first frame taken (the duration is known from then on), not only its clock going.
        loop.run { video.decoder?.hasSound == true && video.duration != nil && video.position > 0.2 }
        let decoder = try #require(video.decoder)
        #expect(decoder.hasSound && !decoder.holdsStill, "it plays with its sound")
        cover.isHidden = false
        loop.run { decoder.holdsStill }
        #expect(decoder.holdsStill, "covered, its pipeline is paused")
        cover.isHidden = true
        loop.run { !decoder.holdsStill }
        #expect(!decoder.holdsStill && video.playbackState == .playing, "uncovered, it plays on")
        video.removeFromParent()
        loop.run { decoder.holdsStill }
        #expect(decoder.holdsStill, "out of the window, its sound stopped")
    }

    private func soundPosition(of decoder: VideoDecoder, beyond seconds: Double) -> Double? {
        for _ in 0..<100 {
            if let p = decoder.soundPosition, p > seconds { return p }
            usleep(20_000)
        }
        return decoder.soundPosition
    }
}

/// A board window's loop in real time: frames at 60 a second on the loop's clock, each run until
/// `done` or 10 s (a clip's decoder is made on another thread there, and GStreamer's first start
/// in a process may read its plugin registry for a while).
final class RealTimeFrames {
    private let window: Window
    private let buffer: PixelBuffer
    private var count = 0

    init(_ window: Window) {
        self.window = window
        buffer = PixelBuffer(width: window.pixelWidth, height: window.pixelHeight)
    }

    func run(until done: () -> Bool) {
        for _ in 0..<600 where !done() {
            _ = window.timers.runDue(upTo: Double(count) / 60)
            _ = window.render(into: buffer, at: Double(count) / 60)
            count += 1
            usleep(16_000)
        }
    }
}
