import AppContract
import CALSA
import CGStreamer
import Geometry
import NIOConcurrencyHelpers
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// A decoded frame: its pixels (BGRA, opaque) and its time in the clip, in seconds.
package struct VideoFrame {
    package let pixels: PixelBuffer
    package let time: Double
    /// Grows with every new frame: what a view's scaled copy was made from.
    package let serial: Int
}

/// A clip's frames from GStreamer: `filesrc ! decodebin ! videoconvert ! appsink`, decoding on
/// GStreamer's threads a couple of frames ahead of what is shown (the sink holds two, then the
/// decoder waits), converted there to Glide's pixel format. The frame loop takes the newest frame
/// due at its time with `frame(at:waiting:)`, which seeks when that time jumps back (a loop
/// starting again) or far ahead; waiting, it blocks until that frame is decoded, so a headless
/// run's frames show exactly the video at their virtual time.
///
/// With a sound device (a board's), the clip's sound plays there too: `decoder. ! audio/x-raw !
/// queue ! audioconvert ! audioresample ! volume ! alsasink`, on the pipeline's clock, which the
/// sound card keeps. Paused, such a pipeline is paused too, or its sound would go on.
package final class VideoDecoder: @unchecked Sendable {
    /// The most a frame may measure: a 4K picture (a larger stream is refused before it is
    /// decoded, so that a file claiming 30,000 × 30,000 pixels costs nothing).
    package static let maxSide = 4096
    package static let maxPixels = 3840 * 2160
    /// How long the first frame, or a waited-for one, may take before the clip is given up (a
    /// file cut inside its index can leave the demuxer waiting without an error).
    static let patience = 5.0

    package let path: String
    private let gst: GStreamer
    private let pipeline: UnsafeMutableRawPointer
    private let sink: UnsafeMutableRawPointer
    private let bus: UnsafeMutableRawPointer
    /// The sound branch's volume and sink, when the clip was opened with a sound device.
    private let volume: UnsafeMutableRawPointer?
    private let speaker: UnsafeMutableRawPointer?
    /// Paused with its sound: the pipeline is paused, and gives a frame only after a seek.
    private var isPaused = false
    private var prerollDue = false
    /// What decodebin's signal handlers hold (a test sees them let go).
    let sizeGuard: SizeGuard
    let chosenDecoder: ChosenDecoder
    private var current: Sample?
    private var pending: Sample?
    private var shown: VideoFrame?
    private var missingPlugin: String?
    /// Why the clip stopped, once it has.
    package private(set) var failure: String?
    /// Why a clip opened with a sound device plays without sound (the device cannot be opened).
    package let soundFailure: String?
    /// The stream ended: no frame after the last one taken (until a seek).
    package private(set) var reachedEnd = false
    /// The clip's length, once GStreamer knows it.
    package private(set) var duration: Double?
    private var lastTime = 0.0, frameLength = 1.0 / 30
    /// The stream time of the first frame: the clip's 0.
    private var origin: Double?
    private var seekedTo = 0.0
    private var lastAsked: Double?
    /// When the pipeline was started, or last set going before its first frame (a clip paused
    /// out of sight): the first frame's patience counts from here, not from before GStreamer's
    /// first `gst_init`, which reads (or, the first time on a machine, builds by loading every
    /// plugin) the plugin registry.
    private var openedAt: Double
    /// The next `frame(at:)` seeks to its time, whatever it asks: sound and picture together.
    private var realignDue = false

    private struct Sample {
        let pointer: UnsafeMutableRawPointer
        let time: Double
        /// Counts the samples pulled: which one `shown` was copied from.
        let number: Int
    }
    private var pulled = 0, shownNumber = 0

    /// Starts decoding the file at `path`, with its sound on the ALSA device `sound` (`default`,
    /// `plughw:1`) when one is given and it opens; throws when the file is not a local, readable
    /// file or GStreamer is missing. Problems in the stream itself come later, as `failure`.
    /// `playing` false: a clip with sound starts paused (`setPaused(false)` starts it).
    package init(path: String, sound: String? = nil, playing: Bool = true) throws(VideoError) {
        self.path = path
        if path.contains("://") {
            throw VideoError("\(path) is a network address: a video plays from a file on the board (copy the clip there)")
        }
        guard access(path, R_OK) == 0 else { throw VideoError("\(path): \(String(cString: strerror(errno)))") }
        gst = try GStreamer.shared.get()
        var error: UnsafeMutablePointer<GlideGstError>?
        var soundFailure = sound.flatMap(Self.refusal(ofSoundDevice:))
        // The sound sink takes no part in prerolling (async=false): a clip without sound leaves
        // its branch unlinked, and the pipeline plays all the same.
        let picture =
            "filesrc name=source ! decodebin name=decoder ! videoconvert ! video/x-raw,format=BGRA"
            + " ! appsink name=sink max-buffers=2 sync=false enable-last-sample=false"
        let withSound =
            " decoder. ! audio/x-raw ! queue ! audioconvert ! audioresample ! volume name=volume ! alsasink name=speaker async=false"
        var built: UnsafeMutableRawPointer?
        if sound != nil, soundFailure == nil {
            built = gst.parseLaunch(picture + withSound, &error)
            // Without GStreamer's ALSA plugin (parsing gives a pipeline that lacks it, and an
            // error) the picture plays alone.
            if let reason = gst.take(error) {
                soundFailure =
                    "GStreamer cannot play sound (\(reason); Debian: apt-get install gstreamer1.0-alsa): the clip plays without sound"
                if let built { gst.objectUnref(built) }
                (built, error) = (nil, nil)
            }
        }
        let speaks = built != nil
        guard let pipeline = built ?? gst.parseLaunch(picture, &error) else {
            throw VideoError("GStreamer could not build a video pipeline: \(gst.take(error) ?? "no reason given")")
        }
        _ = gst.take(error)
        self.soundFailure = soundFailure
        guard let source = gst.binGetByName(pipeline, "source"), let decoder = gst.binGetByName(pipeline, "decoder"),
            let sink = gst.binGetByName(pipeline, "sink"), let bus = gst.getBus(pipeline)
        else {
            gst.objectUnref(pipeline)
            throw VideoError("GStreamer's video pipeline lacks its elements (Debian: apt-get install gstreamer1.0-plugins-base)")
        }
        (self.pipeline, self.sink, self.bus) = (pipeline, sink, bus)
        (volume, speaker) = speaks ? (gst.binGetByName(pipeline, "volume"), gst.binGetByName(pipeline, "speaker")) : (nil, nil)
        if let speaker, let sound { gst.set("device", to: sound, on: speaker) }
        sizeGuard = SizeGuard(gst)
        chosenDecoder = ChosenDecoder(gst)
        gst.set("location", to: path, on: source)
        gst.objectUnref(source)
        let autoplug = unsafeBitCast(SizeGuard.autoplugContinue, to: UnsafeMutableRawPointer.self)
        gst.connect("autoplug-continue", of: decoder, to: autoplug, owner: sizeGuard)
        chosenDecoder.watch(decoder)
        gst.objectUnref(decoder)
        // PLAYING with an unsynchronised sink: frames are decoded as fast as the sink takes them.
        // (PAUSED for a clip with sound that is not to play yet: it shows its first frame.)
        (isPaused, prerollDue) = speaks && !playing ? (true, true) : (false, false)
        _ = gst.setState(pipeline, isPaused ? 3 : 4)
        openedAt = monotonicSeconds()
    }

    deinit {
        // A pipeline dropped as its demuxer fails may refuse its first NULL (GST_STATE_CHANGE_FAILURE
        // as its state change meets the error's); the next brings it down. One left in READY is
        // disposed with GStreamer still at work on it.
        var refusals = 0
        while gst.setState(pipeline, 1) != 1, refusals < 3 { refusals += 1 }
        for s in [current, pending].compactMap({ $0 }) { gst.miniObjectUnref(s.pointer) }
        gst.objectUnref(bus)
        gst.objectUnref(sink)
        for element in [volume, speaker].compactMap({ $0 }) { gst.objectUnref(element) }
        gst.objectUnref(pipeline)
    }

    /// The video decoder decodebin chose ("decoder avdec_h264", "hardware decoder
    /// v4l2slh264dec"): GStreamer ranks a board's hardware decoders above its software ones, and
    /// the log says which one a clip got. Nil until the stream's decoder is made.
    package var decoderName: String? { chosenDecoder.name }

    /// Whether the clip's sound goes to a device (muted or not).
    package var hasSound: Bool { volume != nil }

    /// Silences the clip's sound, or lets it play, without stopping it.
    package var isMuted = false {
        didSet { if let volume, isMuted != oldValue { gst.set("mute", to: isMuted, on: volume) } }
    }

    /// How far the sound device has played the clip's sound, in seconds (nil without sound).
    package var soundPosition: Double? {
        var nanoseconds: Int64 = 0
        guard let speaker, gst.queryPosition(speaker, 3, &nanoseconds) != 0 else { return nil }
        return Double(nanoseconds) / 1e9
    }

    /// Pauses or resumes a clip with sound: its pipeline stops, or its sound would play on while
    /// the picture holds. A clip without sound needs nothing: its frames are taken when due.
    package func setPaused(_ paused: Bool) {
        guard hasSound, paused != isPaused, failure == nil else { return }
        isPaused = paused
        // A clip paused before its first frame shows that frame (GStreamer's preroll).
        prerollDue = paused && origin == nil
        if !paused, origin == nil { openedAt = monotonicSeconds() }
        // GST_STATE_PAUSED or GST_STATE_PLAYING.
        _ = gst.setState(pipeline, paused ? 3 : 4)
    }

    /// Makes the next frame asked for a seek there: a clip with sound paused out of sight plays
    /// its sound from where the picture is when it is back, not from where it stopped.
    package func realign() { realignDue = origin != nil }

    /// Paused with its sound, the frame a seek asked for came (or none is awaited).
    package var holdsStill: Bool { isPaused && !prerollDue }

    /// Why the ALSA device `device` cannot play (nil when it opens): opened and closed at once
    /// without waiting, so that a board without a sound card plays its clips silently.
    private static func refusal(ofSoundDevice device: String) -> String? {
        var handle: OpaquePointer?
        let err = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        if err >= 0, let handle {
            snd_pcm_close(handle)
            return nil
        }
        return "the sound device '\(device)' cannot be used (\(String(cString: snd_strerror(err)))): the clip plays without sound"
    }

    /// The newest frame due at `time` seconds into the clip (nil before the first is decoded).
    /// Waiting, it returns only once the frame after it is decoded too, or the stream ended.
    package func frame(at time: Double, waiting: Bool) -> VideoFrame? {
        readBus()
        guard failure == nil else { return shown }
        if origin == nil {
            // The first frame starts the clip, whatever its stream time (a file with B-frames
            // may start at 2 frames' time): it shows from 0.
            guard pull(waiting: waiting), let first = pending else { return nil }
            origin = first.time
            (current, pending) = (Sample(pointer: first.pointer, time: 0, number: first.number), nil)
        }
        // A seek where the asked time jumps (back: a loop starting again; ahead: the view back in
        // sight), not where decoding lags: a board slower than the clip shows its frames late
        // rather than seeking again and again and showing none.
        let last = lastAsked ?? current?.time ?? 0
        let jumped = (current != nil || lastAsked != nil) && (time < last - 1e-6 || time > last + 1)
        if jumped || realignDue {
            realignDue = false
            seek(to: time)
        }
        lastAsked = time
        take(upTo: time, waiting: waiting)
        if duration == nil { duration = queryDuration() }
        return converted()
    }

    /// Takes the frames due by `time`, converting none of them yet.
    private func take(upTo time: Double, waiting: Bool) {
        while failure == nil {
            if let p = pending {
                guard p.time <= time + 1e-6 else { return }
                if let c = current { gst.miniObjectUnref(c.pointer) }
                current = p
                pending = nil
            }
            guard pull(waiting: waiting) else { return }
        }
    }

    /// Pulls the next frame into `pending`: at once, or waiting while the decoder works.
    @discardableResult
    private func pull(waiting: Bool) -> Bool {
        // The first frame has `patience` from the decoder's start, on a board too (nothing waits
        // there); a frame waited for later, from this call.
        let since = origin == nil ? openedAt : monotonicSeconds()
        while true {
            // A paused pipeline hands over no frames but the one a seek prerolled.
            if isPaused, !prerollDue { return false }
            let timeout: UInt64 = waiting ? 20_000_000 : 0
            if let sample = isPaused ? gst.tryPullPreroll(sink, timeout) : gst.tryPullSample(sink, timeout) {
                if isPaused { prerollDue = false }
                pulled += 1
                pending = Sample(pointer: sample, time: time(of: sample), number: pulled)
                return true
            }
            if gst.isEOS(sink) != 0 {
                // A stream that ends before any frame after a seek lost its frames (a file cut
                // short or overwritten while it played): a loop would start again for ever.
                if current == nil, origin != nil {
                    fail("the clip has no frames after \(fixed(seekedTo, 1)) s: its file ends early (cut short or overwritten?)")
                }
                reachedEnd = true
                if duration == nil { duration = lastTime - (origin ?? 0) + frameLength }
                return false
            }
            readBus()
            if failure == nil, monotonicSeconds() - since > Self.patience {
                fail("no frame came in \(Int(Self.patience)) s (a file cut short, or a stream GStreamer cannot read)")
            }
            guard waiting, failure == nil else { return false }
        }
    }

    private func time(of sample: UnsafeMutableRawPointer) -> Double {
        guard let buffer = gst.sampleBuffer(sample) else { return lastTime }
        let head = buffer.assumingMemoryBound(to: GlideGstBufferHead.self).pointee
        if head.duration != UInt64.max, head.duration > 0 { frameLength = Double(head.duration) / 1e9 }
        lastTime = head.pts == UInt64.max ? lastTime + frameLength : Double(head.pts) / 1e9
        return lastTime - (origin ?? 0)
    }

    /// Starts decoding again from the key frame at or before `time` seconds; `frame(at:)`
    /// passes the frames before `time`. (An accurate seek would clip the first frame's time to
    /// the point asked for, and its frames would no longer fall on the clip's own times.)
    private func seek(to time: Double) {
        for s in [current, pending].compactMap({ $0 }) { gst.miniObjectUnref(s.pointer) }
        (current, pending, reachedEnd, seekedTo) = (nil, nil, false, time)
        prerollDue = isPaused
        if origin == nil { openedAt = monotonicSeconds() }
        // GST_FORMAT_TIME; GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT | GST_SEEK_FLAG_SNAP_BEFORE.
        if gst.seekSimple(pipeline, 3, 1 | 4 | 32, Int64((max(0, time) + (origin ?? 0)) * 1e9)) == 0 { readBus() }
    }

    private func queryDuration() -> Double? {
        var nanoseconds: Int64 = 0
        guard gst.queryDuration(pipeline, 3, &nanoseconds) != 0, nanoseconds > 0 else { return nil }
        return Double(nanoseconds) / 1e9
    }

    /// The current frame as pixels, copied out of GStreamer's buffer once.
    private func converted() -> VideoFrame? {
        guard let c = current, c.number != shownNumber else { return shown }
        shownNumber = c.number
        guard let caps = gst.sampleCaps(c.pointer), let structure = gst.capsStructure(caps, 0), let buffer = gst.sampleBuffer(c.pointer)
        else {
            return shown
        }
        var width: Int32 = 0, height: Int32 = 0
        guard gst.structureInt(structure, "width", &width) != 0, gst.structureInt(structure, "height", &height) != 0 else {
            fail("the decoder gave frames without a size")
            return shown
        }
        let w = Int(width), h = Int(height), stride = w * 4
        if let reason = SizeGuard.refusal(width: w, height: h) {
            fail(reason)
            return shown
        }
        var map = GlideGstMapInfo()
        guard gst.bufferMap(buffer, &map, 1) != 0 else { return shown }
        defer { gst.bufferUnmap(buffer, &map) }
        guard let data = map.data, map.size >= stride * h else { return shown }
        // The last frame's buffer is reused: views keep scaled copies, not the frame.
        let pixels = shown.flatMap { $0.pixels.width == w && $0.pixels.height == h ? $0.pixels : nil } ?? PixelBuffer(width: w, height: h)
        for y in 0..<h {
            UnsafeMutableRawPointer(pixels.span.row(y)).copyMemory(from: data + y * stride, byteCount: stride)
        }
        shown = VideoFrame(pixels: pixels, time: c.time, serial: (shown?.serial ?? 0) + 1)
        return shown
    }

    /// Reads GStreamer's messages: an error stops the clip with the clearest reason known.
    private func readBus() {
        while let message = gst.busPop(bus) {
            defer { gst.miniObjectUnref(message) }
            let type = message.assumingMemoryBound(to: GlideGstMessageHead.self).pointee.type
            if type == UInt32(GlideGstMessageError) {
                var error: UnsafeMutablePointer<GlideGstError>?
                var debug: UnsafeMutablePointer<CChar>?
                gst.parseError(message, &error, &debug)
                let text = gst.take(error) ?? "GStreamer stopped the clip"
                _ = gst.take(debug)
                fail(missingPlugin ?? text)
            } else if type == UInt32(GlideGstMessageElement), let m = gst.missingPlugin, m.isMessage(message) != 0 {
                missingPlugin = MissingPlugin.message(description: gst.take(m.description(message)), detail: gst.take(m.detail(message)))
            }
        }
    }

    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = sizeGuard.refused ?? reason
    }
}

/// decodebin's check of each stream's size before a decoder is made for it.
final class SizeGuard: @unchecked Sendable {
    private let gst: GStreamer
    private let refusal = NIOLockedValueBox<String?>(nil)

    init(_ gst: GStreamer) { self.gst = gst }

    /// Why the stream was refused, if it was.
    var refused: String? { refusal.withLockedValue { $0 } }

    static func refusal(width: Int, height: Int) -> String? {
        guard width > VideoDecoder.maxSide || height > VideoDecoder.maxSide || width * height > VideoDecoder.maxPixels else { return nil }
        return "its frames are \(width) × \(height) pixels; a video may have at most \(VideoDecoder.maxPixels) (3840 × 2160)"
    }

    /// Called on GStreamer's streaming thread for each stream decodebin finds.
    static let autoplugContinue: GlideAutoplugContinue = { _, _, caps, data in
        guard let caps, let data else { return 1 }
        return Unmanaged<SizeGuard>.fromOpaque(data).takeUnretainedValue().allows(caps) ? 1 : 0
    }

    private func allows(_ caps: UnsafeMutableRawPointer) -> Bool {
        guard let structure = gst.capsStructure(caps, 0) else { return true }
        var width: Int32 = 0, height: Int32 = 0
        guard gst.structureInt(structure, "width", &width) != 0, gst.structureInt(structure, "height", &height) != 0,
            let reason = Self.refusal(width: Int(width), height: Int(height))
        else { return true }
        refusal.withLockedValue { $0 = $0 ?? reason }
        return false
    }
}

/// The video decoder decodebin plugs in, noted on GStreamer's streaming thread. decodebin
/// adds a candidate and takes it out again when it will not start (a hardware decoder whose
/// device is busy, or that refuses the stream's profile), then tries the next: the one left
/// in is the one that decodes.
final class ChosenDecoder: @unchecked Sendable {
    private let gst: GStreamer
    private let chosen = NIOLockedValueBox<(element: UnsafeMutableRawPointer, name: String)?>(nil)

    init(_ gst: GStreamer) { self.gst = gst }

    var name: String? { chosen.withLockedValue { $0?.name } }

    /// Follows what decodebin `bin` plugs in and takes out, for as long as it lives.
    func watch(_ bin: UnsafeMutableRawPointer) {
        let added = unsafeBitCast(Self.elementAdded, to: UnsafeMutableRawPointer.self)
        let removed = unsafeBitCast(Self.elementRemoved, to: UnsafeMutableRawPointer.self)
        gst.connect("element-added", of: bin, to: added, owner: self)
        gst.connect("element-removed", of: bin, to: removed, owner: self)
    }

    private static let elementAdded: GlideElementSignal = { _, element, data in
        guard let element, let data else { return }
        Unmanaged<ChosenDecoder>.fromOpaque(data).takeUnretainedValue().note(element)
    }

    private static let elementRemoved: GlideElementSignal = { _, element, data in
        guard let element, let data else { return }
        Unmanaged<ChosenDecoder>.fromOpaque(data).takeUnretainedValue().chosen.withLockedValue {
            if $0?.element == element { $0 = nil }
        }
    }

    private func note(_ element: UnsafeMutableRawPointer) {
        guard let factory = gst.elementFactory(element), let klass = gst.factoryMetadata(factory, "klass"),
            let name = gst.take(gst.objectName(factory)), let label = Self.label(factoryClass: String(cString: klass), name: name)
        else { return }
        chosen.withLockedValue { $0 = (element, label) }
    }

    /// What the log calls an element of factory `name` and class `factoryClass`, when it is a
    /// video decoder: decoders say what they are in their class ("Codec/Decoder/Video/Hardware").
    static func label(factoryClass: String, name: String) -> String? {
        guard factoryClass.contains("Decoder/Video") else { return nil }
        return (factoryClass.contains("Hardware") ? "hardware decoder " : "decoder ") + name
    }
}

/// The Debian package that decodes what GStreamer says it is missing.
package enum MissingPlugin {
    /// From a missing-plugin message's description ("H.265 (Main Profile) decoder") and
    /// installer detail (`gstreamer|1.0|app|H.265 decoder|decoder-video/x-h265, ...`).
    package static func message(description: String?, detail: String?) -> String {
        let what = description ?? "a plugin"
        guard let package = package(forDetail: detail) else {
            return "GStreamer has no \(what) (no Debian package is known to have one)"
        }
        return "GStreamer has no \(what) (Debian: apt-get install \(package))"
    }

    static func package(forDetail detail: String?) -> String? {
        guard let detail, let last = detail.split(separator: "|").last else { return nil }
        let kind = last.split(separator: "-", maxSplits: 1)
        guard kind.count == 2 else { return nil }
        return kind[1].split(separator: ",").first.flatMap { packages[String($0)] }
    }

    private static let packages: [String: String] = [
        "video/x-h264": "gstreamer1.0-libav", "video/x-h265": "gstreamer1.0-libav", "video/mpeg": "gstreamer1.0-libav",
        "video/x-vp8": "gstreamer1.0-plugins-good", "video/x-vp9": "gstreamer1.0-plugins-good",
        "video/x-av1": "gstreamer1.0-plugins-bad", "video/x-theora": "gstreamer1.0-plugins-base",
        "video/quicktime": "gstreamer1.0-plugins-good", "video/x-matroska": "gstreamer1.0-plugins-good",
        "video/webm": "gstreamer1.0-plugins-good", "video/x-msvideo": "gstreamer1.0-plugins-good",
        "video/mpegts": "gstreamer1.0-plugins-bad", "image/jpeg": "gstreamer1.0-plugins-good",
    ]
}
