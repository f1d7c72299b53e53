import CDRM
import Geometry
import Raster
import Runtime
#if canImport(Glibc)
import Glibc
#endif

/// A DRM/KMS output implementing `Display`: one connector, one CRTC, two or three
/// dumb buffers flipped with page-flip events, committed atomically where the driver offers it
/// (with the damage as `FB_DAMAGE_CLIPS`) or with the legacy calls (`ModesettingAPI`). The app's
/// frame is copied (damage only, rotated) into a buffer neither on screen nor queued, which is
/// then queued for the next vertical blank; `handleEvents()` (when `fd` is readable) completes
/// the flip. With three buffers a frame can be drawn while a flip is pending: it is held and
/// flipped as soon as that flip completes, so a frame that takes a little longer than a refresh
/// period costs one blank, not every other one.
package final class DRMDisplay: Display {
    package let device: DRMDevice
    package let connector: ConnectorInfo
    package let mode: ModeInfo
    package let crtcID: UInt32
    package let rotation: Rotation
    package let canvasWidth: Int
    package let canvasHeight: Int
    /// The descriptor to poll for page-flip events.
    package var fd: Int32 { device.fd }

    /// A flip is queued and its event has not arrived.
    package var isFlipPending: Bool { queued != nil }
    /// How frames are committed here: `.atomic` or `.legacy`.
    package var modesettingAPI: ModesettingAPI { committer.api }
    /// Why `auto` fell back to legacy modesetting (nil: it did not).
    package let atomicRefusal: DRMError?
    /// Flips that carried damage rectangles (`FB_DAMAGE_CLIPS`), and the rectangles sent.
    package private(set) var flipsWithDamageClips = 0
    package private(set) var damageClipsSent = 0
    /// Flip timestamps: the blank each frame is drawn for, flips, missed blanks.
    package private(set) lazy var flipTiming = FlipTiming(refreshHz: refreshHz)
    /// Called at each completed flip with the latencies from the input it showed to the flip
    /// and the vertical blanks it missed (a fleet's metrics).
    package var onFlip: ((_ inputToFlip: [Double], _ missedBlanks: Int) -> Void)?
    /// The kernel's timestamp of the last completed flip (CLOCK_MONOTONIC seconds).
    package var lastFlipTime: Double? { flipTiming.lastFlip }
    /// Flips completed since start.
    package var flipCount: Int { flipTiming.flips }
    /// Drawing is paused: master dropped (VT switch) or the display went away.
    package private(set) var isPaused = false
    /// The connector came back without the mode in use (another monitor): only a new
    /// `DRMDisplay` can show it.
    package private(set) var isModeGone = false

    private var rawMode: drmModeModeInfo
    private var buffers: [DumbBuffer]
    private let committer: ScanoutCommitter
    /// The buffer on screen, the one whose flip is queued, and the one drawn and waiting for
    /// that flip to complete (three buffers only), with the damage it shows.
    private var front = 0
    private var queued: Int?
    private var ready: (index: Int, damage: Region)?
    /// Damage of frames whose flip failed: the screen still lacks it, so the next flip's damage
    /// rectangles include it.
    private var unshownDamage = Region()
    /// The CRTC was set to our buffers at some point: `restore()` puts the saved one back.
    private var hasModeset = false
    /// The next present sets the CRTC (the first, and the first after a pause: another master
    /// may have changed it).
    private var needsModeset = true
    private var savedCRTC: drmModeCrtcPtr?

    /// Takes the display: master, connector (named or first connected), mode (requested or
    /// preferred), CRTC, `bufferCount` buffers (2 or 3), the modesetting API (`auto`: atomic if
    /// the driver passes its test commit). Saves the CRTC that was there for `restore()`.
    /// `rotation` nil: the connector's panel orientation, if it has one.
    package init(
        device: DRMDevice, connectorName: String?, mode request: ModeRequest?, rotation: Rotation?,
        modesetting: ModesettingAPI = .auto, bufferCount: Int = 2
    ) throws(DRMError) {
        precondition((2...3).contains(bufferCount), "two or three buffers")
        self.device = device
        try device.becomeMaster()
        let probe = try device.probe()
        let connector = try ModeChoice.connector(probe.connectors, named: connectorName, card: device.path)
        let mode = try ModeChoice.mode(connector.modes, requested: request)
        guard let crtc = ModeChoice.crtc(for: connector, encoders: probe.encoders, crtcIDs: probe.crtcIDs) else {
            throw .noCRTC(connector: connector.name)
        }
        self.connector = connector
        self.mode = mode
        self.crtcID = crtc
        let rotation = rotation ?? connector.panelOrientation ?? .none
        self.rotation = rotation
        self.rawMode = probe.rawModes[connector.id]![mode.index]
        let canvas = rotation.canvasSize(panelWidth: mode.width, panelHeight: mode.height)
        canvasWidth = canvas.width
        canvasHeight = canvas.height
        var made: [DumbBuffer] = []
        for _ in 0..<bufferCount {
            let b = try DumbBuffer(device: device, width: mode.width, height: mode.height)
            b.stale = Region(IntRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
            made.append(b)
        }
        buffers = made
        savedCRTC = sys_drmModeGetCrtc(device.fd, crtc)
        let raw = rawMode
        let connectorID = connector.id
        (committer, atomicRefusal) = try chooseCommitter(
            modesetting,
            atomic: { () throws(DRMError) -> ScanoutCommitter in
                try AtomicCommitter(
                    device: device, connectorID: connectorID, crtcID: crtc,
                    crtcIndex: probe.crtcIDs.firstIndex(of: crtc) ?? 0, mode: raw,
                    testFramebuffer: made[0].framebufferID)
            }, legacy: { LegacyCommitter(device: device, connectorID: connectorID, crtcID: crtc, mode: raw) })
    }

    deinit {
        restore()
        if let savedCRTC { drmModeFreeCrtc(savedCRTC) }
    }

    package var refreshHz: Double { mode.refreshHz > 0 ? mode.refreshHz : 60 }
    /// Scanout buffers: 2, or 3 (triple buffering).
    package var bufferCount: Int { buffers.count }

    /// True when `present` may be called: no flip pending, or (three buffers) a flip pending
    /// and no frame held behind it yet.
    package var hasFreeBuffer: Bool { queued == nil || (bufferCount > 2 && ready == nil) }

    /// The bands a frame's damage is copied into the scanout buffer in (the runtime gives the
    /// window's, `render_threads`).
    package var copyBands = BandRenderer(threads: 1)

    package func present(_ frame: PixelBuffer, damage: Region) throws {
        try present(frame, damage: damage, inputTimes: [])
    }

    /// Copies `damage` (plus what the buffer missed) from `frame` into a free buffer and queues
    /// it: the first time with a modeset, then with a page flip whose event `handleEvents()`
    /// receives, or held until the pending flip completes. `inputTimes`: the input the frame
    /// shows, for input-to-flip figures. Throws `DRMError`; while paused it only records damage.
    package func present(_ frame: PixelBuffer, damage: Region, inputTimes: [Double]) throws {
        precondition(frame.width == canvasWidth && frame.height == canvasHeight, "frame is not the canvas size")
        precondition(hasFreeBuffer, "present() with no free buffer: wait for handleEvents()")
        if isPaused {
            for b in buffers { b.stale.formUnion(damage) }
            return
        }
        let backIndex =
            hasModeset
            ? buffers.indices.first { $0 != front && $0 != queued && $0 != ready?.index }!
            : front
        let back = buffers[backIndex]
        var region = back.stale
        region.formUnion(damage)
        copyDamage(from: frame.span, to: back.span, region: region, rotation: rotation, bands: copyBands)
        back.stale = Region()
        for (i, b) in buffers.enumerated() where i != backIndex { b.stale.formUnion(damage) }

        if needsModeset {
            try committer.modeset(framebuffer: back.framebufferID)
            hasModeset = true
            needsModeset = false
            unshownDamage = Region()
            front = backIndex
            return
        }
        flipTiming.flipQueued(inputTimes: inputTimes)
        if queued != nil {
            ready = (backIndex, damage)
        } else {
            try flip(backIndex, damage: damage)
        }
    }

    /// Queues buffer `index`, which differs from the one on screen by `damage`.
    private func flip(_ index: Int, damage: Region) throws(DRMError) {
        let buffer = buffers[index]
        var changed = unshownDamage
        changed.formUnion(damage)
        let clips =
            committer.takesDamageClips
            ? DamageClip.clips(of: changed, rotation: rotation, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
            : []
        let me = Unmanaged.passUnretained(self).toOpaque()
        do {
            try committer.flip(framebuffer: buffer.framebufferID, damage: clips, userData: me)
            queued = index
            unshownDamage = Region()
            if !clips.isEmpty {
                flipsWithDamageClips += 1
                damageClipsSent += clips.count
            }
        } catch {
            preconditionIsNotOurBug(error, committer.flipOperation)
            flipTiming.flipDropped()
            unshownDamage = changed
            // The pixels are in the buffer; let it be redrawn in full when we resume.
            buffer.stale = Region(IntRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight))
            if error == .noSuchDevice || error == .invalidArgument || error == .noSuchFileOrDirectory || error == .permissionDenied {
                isPaused = true  // unplugged, or master lost: resume() after replug / VT return
            }
            throw DRMError.from(error, operation: committer.flipOperation, path: device.path)
        }
    }

    /// Reads pending DRM events (`drmHandleEvent`): completes a queued flip. Call when `fd` is
    /// readable. Returns true when a flip completed.
    @discardableResult
    package func handleEvents() throws(DRMError) -> Bool {
        let before = flipCount
        var context = drmEventContext()
        context.version = Int32(CDRM_EVENT_CONTEXT_VERSION)
        context.page_flip_handler = { _, _, sec, usec, userData in
            guard let userData else { return }
            let display = Unmanaged<DRMDisplay>.fromOpaque(userData).takeUnretainedValue()
            display.flipCompleted(time: Double(sec) + Double(usec) / 1_000_000)
        }
        let r = sys_drmHandleEvent(device.fd, &context)
        if r != 0 {
            let e = Errno.current
            if e != .wouldBlock && e != .interrupted {
                throw DRMError.from(e, operation: "drmHandleEvent", path: device.path)
            }
        }
        if queued == nil, let held = ready, !isPaused {
            ready = nil
            try flip(held.index, damage: held.damage)
        }
        return flipCount != before
    }

    fileprivate func flipCompleted(time: Double) {
        if let queued { front = queued }
        queued = nil
        let missed = flipTiming.missedBlanks
        flipTiming.flipCompleted(at: time)
        onFlip?(flipTiming.lastInputToFlip, flipTiming.missedBlanks - missed)
    }

    /// Forgets flips that will not complete and a held frame (released, unplugged, exiting).
    private func dropPendingFlips() {
        ready = nil
        waitForPendingFlip()
        queued = nil
        flipTiming.pendingDropped()
    }

    /// The first vertical blank after `now`, on the grid of the last completed flip (a flip
    /// queued now completes then); `now` before any flip. Seconds, CLOCK_MONOTONIC. Remembered
    /// as the blank the frame about to be drawn is for, to count it missed if its flip is late.
    package func nextVerticalBlank(after now: Double) -> Double {
        flipTiming.plan(after: now)
    }

    /// What the display engine composed from the frame on screen, read back through the card's
    /// writeback connector: the panel's pixels (rotation applied), as the panel receives them.
    /// Waits for pending and held flips first, so it shows the last presented frame. Throws
    /// `.readBackUnavailable` without a writeback connector or while the display is released.
    package func readBack() throws(DRMError) -> PixelBuffer {
        guard !isPaused, hasModeset else {
            throw .readBackUnavailable(reason: isPaused ? "the display is released or unplugged" : "nothing shown yet")
        }
        waitForPendingFlip(milliseconds: 1000)  // a held frame is flipped on the way
        guard !isFlipPending else { throw .system(operation: "readBack (a page flip did not complete)", errno: .resourceBusy) }
        return try committer.readBack(framebuffer: buffers[front].framebufferID, width: mode.width, height: mode.height)
    }

    /// Waits up to `milliseconds` for a queued flip to complete (used before restoring).
    package func waitForPendingFlip(milliseconds: Int32 = 200) {
        var waited: Int32 = 0
        while isFlipPending && waited < milliseconds {
            var p = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, 20)
            waited += 20
            if r > 0 { _ = try? handleEvents() }
        }
    }

    /// Stops drawing and gives DRM master up (VT switch away, seat handover).
    package func pause() {
        dropPendingFlips()
        isPaused = true
        device.dropMaster()
    }

    /// After a hotplug event: pauses drawing (keeping master) when this display's connector is no
    /// longer connected. Returns true if it just went away.
    package func connectorMayHaveChanged() -> Bool {
        guard !isPaused, let probe = try? device.probe(),
            let c = probe.connectors.first(where: { $0.id == connector.id }), !c.isConnected
        else { return false }
        dropPendingFlips()
        isPaused = true
        return true
    }

    /// Takes master back and shows the front buffer again (VT switch back, display replugged).
    /// Returns false while the connector is still disconnected or master is held elsewhere;
    /// sets `isModeGone` when it is connected again but no longer offers the mode in use.
    package func resume() -> Bool {
        guard isPaused else { return true }
        do {
            try device.becomeMaster()
            let probe = try device.probe()
            guard let c = probe.connectors.first(where: { $0.id == connector.id }), c.isConnected else { return false }
            isModeGone = !c.modes.contains { $0.width == mode.width && $0.height == mode.height }
            guard !isModeGone else { return false }
            for b in buffers { b.stale = Region(IntRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight)) }
            needsModeset = true
            isPaused = false
            return true
        } catch {
            return false
        }
    }

    /// Puts back the CRTC configuration found at start (the text console) and drops master.
    /// Safe to call twice.
    package func restore() {
        dropPendingFlips()
        if let saved = savedCRTC, hasModeset {
            var connectorID = connector.id
            var m = saved.pointee.mode
            let s = saved.pointee
            if s.mode_valid != 0 && s.buffer_id != 0 {
                _ = sys_drmModeSetCrtc(device.fd, s.crtc_id, s.buffer_id, s.x, s.y, &connectorID, 1, &m)
            } else {
                _ = sys_drmModeSetCrtc(device.fd, s.crtc_id, 0, 0, 0, nil, 0, nil)
            }
            hasModeset = false
            needsModeset = true
        }
        device.dropMaster()
    }

    package var summary: String {
        "\(device.path) \(connector.name) \(mode) crtc \(crtcID) rotation \(rotation.rawValue), "
            + "\(modesettingAPI) modesetting\(committer.takesDamageClips ? " with damage clips" : ""), \(bufferCount) buffers"
    }
}
