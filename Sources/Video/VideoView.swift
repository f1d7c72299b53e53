import AppContract
import Dispatch
import Geometry
import Logging
import Raster
@_spi(Hooks) import ViewCore
@_spi(Hooks) import Widgets

/// A clip played from a file (H.264 or VP9 in MP4, WebM or Matroska: whatever the installed
/// GStreamer decodes), fitted or filled like an `ImageView`, muted unless asked (`muted: false`:
/// its sound plays on a board's ALSA device `default`), with no controls of its own. It plays as
/// soon as it is shown, once or in a loop, on the loop's clock: headless, each frame shows the
/// clip exactly at that frame's virtual time, so screenshots of a playing video are the same on
/// every machine; on a board GStreamer decodes on its own threads and the frame loop never waits
/// for it. Until the first frame the view shows its `poster` (a picture from the image store); a
/// file that cannot be played shows why there, and in the log.
public final class VideoView: Box, AnimatedView, SampledWhileShown {
    /// What a video is doing.
    public enum PlaybackState: String, Hashable, Sendable {
        /// Its frames follow the loop's clock.
        case playing
        /// It holds its frame; `play()` goes on from there.
        case paused
        /// A clip that does not loop showed its last frame.
        case ended
        /// It cannot play: `failure` says why.
        case failed
    }

    /// The clip's file.
    public let path: String
    /// How the picture fills the view: `.fit` (the default) shows it all, `.fill` covers the view.
    public var contentMode: ContentMode { didSet { setNeedsDisplay() } }
    /// Starts again from the beginning at the end, without a pause.
    public var loops: Bool
    /// Whether the clip's sound is silenced (the default). Unmuted, the sound plays on a board's
    /// sound card (ALSA's `default` device, which `/etc/asound.conf` points at a card); headless
    /// runs, on a clock of their own, and boards without a sound card play the picture alone.
    public var isMuted: Bool { didSet { if isMuted != oldValue { mutedChanged() } } }
    /// Called once when a clip that does not loop reaches its end.
    public var onEnd: (() -> Void)?
    /// Playing, paused, ended or failed.
    public private(set) var playbackState: PlaybackState
    /// Why the clip failed (nil while it has not).
    public private(set) var failure: String?

    private(set) var decoder: VideoDecoder?
    private var isOpening = false
    /// Where playing started on the loop's clock, and from which point of the clip.
    private var anchor: (time: Double, position: Double)?
    private var restingPosition = 0.0
    /// A seek's frame is not shown yet: the loop goes on drawing until it is.
    private var awaitsFrame = false
    private var shownFrame: VideoFrame?
    /// In sight at the last sample: a clip with sound coming back realigns its sound.
    private var wasInSight = false
    private var scaled: (serial: Int, rect: Rect, pixels: PixelBuffer)?
    private let posterView: ImageView?
    private let message = Label(verbatim: "", size: 15, color: .white, alignment: .center)

    /// A view of the clip at `path`, playing when first shown (unless `playing` is false), once
    /// or looping, muted (unless `muted` is false), with the picture at `poster` (image store
    /// path) shown until its first frame.
    public init(
        _ path: String, id: String? = nil, contentMode: ContentMode = .fit, loops: Bool = false, playing: Bool = true,
        muted: Bool = true, poster: String? = nil, width: Double? = nil, height: Double? = nil, cornerRadius: Double = 0
    ) {
        self.path = path
        self.contentMode = contentMode
        self.loops = loops
        isMuted = muted
        playbackState = playing ? .playing : .paused
        posterView = poster.map { ImageView(source: $0, contentMode: contentMode, cornerRadius: cornerRadius, placeholder: nil) }
        super.init(id: id, fill: .black, cornerRadius: cornerRadius, width: width, height: height)
        clipsChildren = true
        if let posterView { add(posterView) }
        message.isHidden = true
        add(message)
    }

    /// The point of the clip shown now, in seconds.
    public var position: Double { position(at: host?.time ?? 0) }

    /// The clip's length in seconds, once known.
    public var duration: Double? { decoder?.duration }

    /// Plays from where it is (from the start once ended).
    public func play() {
        guard playbackState != .failed, playbackState != .playing else { return }
        if playbackState == .ended { restingPosition = 0 }
        playbackState = .playing
        anchor = nil
        decoder?.setPaused(!isInSight)
        host?.scheduleFrame()
    }

    /// Stops where it is; `play()` goes on from there.
    public func pause() {
        guard playbackState == .playing else { return }
        restingPosition = position
        anchor = nil
        playbackState = .paused
        decoder?.setPaused(true)
    }

    /// Shows the clip at `seconds` (clamped to the clip), playing on from there if it was playing.
    public func seek(to seconds: Double) {
        guard seconds.isFinite else { return }
        restingPosition = min(max(0, seconds), duration ?? .infinity)
        anchor = nil
        if playbackState == .ended { playbackState = .paused }
        // Paused on a board, the frame there may take a few frames of the loop to decode.
        awaitsFrame = true
        host?.scheduleFrame()
    }

    private func position(at t: Double) -> Double {
        guard let anchor else { return restingPosition }
        return anchor.position + max(0, t - anchor.time)
    }

    /// The point of the clip's own timeline shown at `position`: looped, or held at the end.
    private func clipTime(_ position: Double) -> Double {
        guard let d = duration, d > 0 else { return position }
        return loops ? position.truncatingRemainder(dividingBy: d) : min(position, d)
    }

    // MARK: The loop

    public func sample(at t: Double) {
        if decoder == nil { open() }
        guard let decoder, playbackState != .failed else { return }
        if playbackState == .playing, anchor == nil { anchor = (t, restingPosition) }
        let p = position(at: t), inSight = isInSight
        // With sound, its pipeline stops out of sight (scrolled away, covered), or the sound
        // would play on until GStreamer's queues fill: a second or two.
        decoder.setPaused(playbackState != .playing || !inSight)
        if inSight, !wasInSight, decoder.hasSound { decoder.realign() }
        wasInSight = inSight
        if inSight {
            let target = clipTime(p), waiting = !(host?.images.decodesInBackground ?? false)
            let shown = decoder.frame(at: target, waiting: waiting)
            let arrived = shown.map { abs(target - $0.time) < 0.1 } == true
            if waiting || decoder.reachedEnd || decoder.holdsStill || arrived { awaitsFrame = false }
            if let shown, shown.serial != shownFrame?.serial {
                let (w, h) = (shown.pixels.width, shown.pixels.height)
                let resized = shownFrame.map { $0.pixels.width != w || $0.pixels.height != h } ?? true
                if shownFrame == nil {
                    processLog.info("video \(path): playing, \(w) × \(h)\(decoder.decoderName.map { " (\($0))" } ?? "")")
                }
                shownFrame = shown
                if height == nil, resized { setNeedsLayout() }
                posterView?.isHidden = true
                setNeedsDisplay()
            }
        }
        if let reason = decoder.failure { return fail(reason) }
        if playbackState == .playing, !loops, let end = decoder.duration, p >= end {
            restingPosition = end
            anchor = nil
            playbackState = .ended
            onEnd?()
        }
    }

    /// Left the window or hidden: the clip's sound stops with its picture.
    package func stoppedBeingSampled() {
        decoder?.setPaused(true)
        wasInSight = false
    }

    public func isAnimating(at t: Double) -> Bool {
        (playbackState == .playing || awaitsFrame) && decoder != nil && isInSight
    }

    /// Shown, on screen, and not hidden under an opaque view drawn over it (an attract screen
    /// over the catalog's card clips, a sheet over a page): a clip out of sight takes no frames,
    /// and its decoder waits with the two it has ready.
    private var isInSight: Bool {
        guard let host else { return false }
        for v in selfAndAncestors where v.isHidden { return false }
        let visible = host.visibleRect(of: self)
        return !visible.isEmpty && !isCovered(visible)
    }

    /// Whether a view drawn after this one (a later sibling of it or of an ancestor, or one of
    /// their descendants) paints over all of `visible`.
    private func isCovered(_ visible: Rect) -> Bool {
        var view: View = self
        while let parent = view.parent {
            // Moved by an effect, the clip is drawn off its layout frame, which the covers are
            // compared with (its opacity does not matter: a faint clip is hidden all the same).
            guard !view.isMovedByEffects, let index = parent.children.firstIndex(where: { $0 === view }) else { return false }
            for above in parent.children[(index + 1)...] where Self.paintsOver(visible, above) { return true }
            view = parent
        }
        return false
    }

    /// `view` or a descendant hides `r`: shown, opaque, unmoved by effects, its background
    /// holding `r` clear of its rounded corners. Only views whose frame holds `r` are searched.
    private static func paintsOver(_ r: Rect, _ view: View) -> Bool {
        guard !view.isHidden, !view.hasVisualEffects else { return false }
        func holds(_ outer: Rect) -> Bool { outer.minX <= r.minX && outer.minY <= r.minY && outer.maxX >= r.maxX && outer.maxY >= r.maxY }
        let frame = view.frameInWindow
        guard holds(frame) else { return false }
        // A theme's colour is drawn as the theme resolves it, which may be see-through.
        if let fill = view.fill, fill.alpha == 255, case let theme = view.environment.theme, theme.resolve(fill).alpha == 255 {
            let corner = view.cornerRadius(in: theme)
            if holds(frame.insetBy(dx: corner, dy: 0)) || holds(frame.insetBy(dx: 0, dy: corner)) { return true }
        }
        return view.children.contains { paintsOver(r, $0) }
    }

    /// Makes the decoder: at once headless (its first frame is waited for anyway), on another
    /// thread on a board, where starting GStreamer the first time reads its plugin registry. Only
    /// a board's clip has sound: a headless run's clock is its own, not a sound card's.
    private func open() {
        guard let host, !isOpening, playbackState != .failed else { return }
        isOpening = true
        let path = self.path
        guard host.images.decodesInBackground else {
            return opened(Result { () throws(VideoError) in try VideoDecoder(path: path) })
        }
        let (sound, playing) = (isMuted ? nil : soundDevice, playbackState == .playing)
        let channel = host.timers.channel { [weak self] (result: Result<VideoDecoder, VideoError>) in self?.opened(result) }
        DispatchQueue.global().async {
            _ = channel.send(Result { () throws(VideoError) in try VideoDecoder(path: path, sound: sound, playing: playing) })
        }
    }

    /// The ALSA device a board's clip sounds on (tests: `null`).
    package var soundDevice = "default"

    /// Muted, a clip with sound is silenced where it is; unmuted, a clip opened without sound is
    /// opened again with it, from where it is (on a board).
    private func mutedChanged() {
        guard let decoder else { return }
        if decoder.hasSound {
            decoder.isMuted = isMuted
        } else if !isMuted, host?.images.decodesInBackground == true {
            restingPosition = position
            anchor = nil
            self.decoder = nil
            host?.scheduleFrame()
        }
    }

    private func opened(_ result: Result<VideoDecoder, VideoError>) {
        isOpening = false
        switch result {
        case .success(let d):
            decoder = d
            if let reason = d.soundFailure { processLog.warning("video \(path): \(reason)", metadata: id.map { ["view": .string($0)] }) }
            // Muted, unmuted or paused while it was opened.
            d.isMuted = isMuted
            d.setPaused(playbackState != .playing || !isInSight)
            if !isMuted, !d.hasSound, d.soundFailure == nil { mutedChanged() }
            host?.scheduleFrame()
        case .failure(let error):
            fail(error.message)
        }
    }

    private func fail(_ reason: String) {
        guard playbackState != .failed else { return }
        playbackState = .failed
        failure = reason
        anchor = nil
        decoder = nil
        message.text = reason
        message.isHidden = false
        processLog.warning("video \(path): \(reason)", metadata: id.map { ["view": .string($0)] })
        setNeedsLayout()
        setNeedsDisplay()
    }

    // MARK: Layout and drawing

    /// Natural size: the proposed width (or the clip's pixels as points), as tall as the clip's
    /// shape makes it (16:9 until its first frame).
    public override func sizeThatFits(_ proposal: Size) -> Size {
        let picture =
            shownFrame.map { Size(width: Double($0.pixels.width), height: Double($0.pixels.height)) } ?? Size(width: 1280, height: 720)
        let w = width ?? (proposal.width.isFinite ? proposal.width : picture.width)
        return Size(width: w, height: height ?? (w * picture.height / picture.width).rounded())
    }

    public override func layoutChildren() {
        let inner = contentBounds
        posterView?.frame = inner
        let s = message.constrained(message.sizeThatFits(Size(width: max(0, inner.width - 24), height: .infinity)))
        message.frame = Rect(
            x: inner.minX + (inner.width - s.width) / 2, y: inner.minY + max(0, (inner.height - s.height) / 2),
            width: s.width, height: min(s.height, inner.height))
        for c in children { c.layoutChildren() }
    }

    public override func draw(in context: inout DrawContext) {
        super.draw(in: &context)
        guard let frame = shownFrame, let cache = host?.rasterCache else { return }
        let picture = Size(width: Double(frame.pixels.width), height: Double(frame.pixels.height))
        let inner = contentBounds
        let placed = ImageView.imageRect(forPictureOf: picture, in: inner.size, mode: contentMode).offsetBy(dx: inner.minX, dy: inner.minY)
        let destination = context.pixels(placed)
        let bounds = context.pixels(Rect(origin: .zero, size: self.frame.size))
        let shown = destination.intersection(bounds)
        guard shown.width >= 1, shown.height >= 1 else { return }
        // Scaled once a frame into a buffer of the pixels it covers, then copied on each redraw
        // (a list scrolled over a playing clip redraws it at the display's rate, not the clip's).
        let whole = Rect(
            x: shown.minX.rounded(.down), y: shown.minY.rounded(.down),
            width: shown.maxX.rounded(.up) - shown.minX.rounded(.down), height: shown.maxY.rounded(.up) - shown.minY.rounded(.down))
        if scaled?.serial != frame.serial || scaled?.rect != destination {
            let pixels =
                scaled.flatMap { Int(whole.width) == $0.pixels.width && Int(whole.height) == $0.pixels.height ? $0.pixels : nil }
                ?? PixelBuffer(width: Int(whole.width), height: Int(whole.height))
            let canvas = Canvas(pixels, cache: cache)
            canvas.draw(
                image: Self.reduced(frame.pixels, toWidth: destination.width), in: destination.offsetBy(dx: -whole.minX, dy: -whole.minY))
            scaled = (frame.serial, destination, pixels)
        }
        guard let scaled else { return }
        context.canvas.save()
        if cornerRadius > 0 {
            context.canvas.clip(toRoundedRect: bounds, radius: cornerRadius * context.scale)
        } else {
            context.canvas.clip(to: bounds)
        }
        context.draw(scaled.pixels, inPixels: whole)
        context.canvas.restore()
    }

    /// The frame halved while it would be drawn at less than half its size: bilinear sampling
    /// alone skips pixels there, and a small clip shimmers.
    private static func reduced(_ pixels: PixelBuffer, toWidth width: Double) -> PixelBuffer {
        var times = 0
        while Double(pixels.width >> (times + 1)) >= width && times < 4 { times += 1 }
        return times == 0 ? pixels : pixels.halved(times: times)
    }
}
