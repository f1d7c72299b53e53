import CDRM
import Raster
#if canImport(Glibc)
import Glibc
#endif

// MARK: sys_ wrappers: the only call sites of the C functions

func sys_drmModeAtomicCommit(
    _ fd: Int32, _ request: drmModeAtomicReqPtr, _ flags: UInt32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    drmModeAtomicCommit(fd, request, flags, userData)
}
func sys_drmModeCreatePropertyBlob(_ fd: Int32, _ data: UnsafeRawPointer, _ size: Int, _ id: inout UInt32) -> Int32 {
    drmModeCreatePropertyBlob(fd, data, size, &id)
}
func sys_drmModeDestroyPropertyBlob(_ fd: Int32, _ id: UInt32) -> Int32 { drmModeDestroyPropertyBlob(fd, id) }

/// One way of putting framebuffers on the CRTC, atomic or legacy: what `DRMDisplay` calls.
protocol ScanoutCommitter: AnyObject {
    /// `.atomic` or `.legacy`.
    var api: ModesettingAPI { get }
    /// The C call a failure names.
    var flipOperation: String { get }
    /// The plane takes damage rectangles with a flip.
    var takesDamageClips: Bool { get }
    /// Sets the mode and shows `framebuffer` (blocking, no event).
    func modeset(framebuffer: UInt32) throws(DRMError)
    /// Queues `framebuffer` for the next vertical blank; its completion arrives as a page-flip
    /// event carrying `userData`. `damage`: the panel rectangles that changed since the frame on
    /// screen (empty: all of it).
    func flip(framebuffer: UInt32, damage: [DamageClip], userData: UnsafeMutableRawPointer) throws(Errno)
    /// Composes `framebuffer` once more through a writeback connector and returns the pixels the
    /// display engine produced (panel orientation, `width` x `height`). Blocks until written;
    /// call with no flip pending.
    func readBack(framebuffer: UInt32, width: Int, height: Int) throws(DRMError) -> PixelBuffer
}

extension ScanoutCommitter {
    func readBack(framebuffer: UInt32, width: Int, height: Int) throws(DRMError) -> PixelBuffer {
        throw .readBackUnavailable(reason: "\(api) modesetting has no writeback connector")
    }
}

/// `drmModeSetCrtc` and `drmModePageFlip`: every KMS driver has them.
final class LegacyCommitter: ScanoutCommitter {
    let device: DRMDevice
    let connectorID: UInt32
    let crtcID: UInt32
    var mode: drmModeModeInfo
    let api = ModesettingAPI.legacy
    let flipOperation = "drmModePageFlip"
    let takesDamageClips = false

    init(device: DRMDevice, connectorID: UInt32, crtcID: UInt32, mode: drmModeModeInfo) {
        self.device = device; self.connectorID = connectorID; self.crtcID = crtcID; self.mode = mode
    }

    func modeset(framebuffer: UInt32) throws(DRMError) {
        var connector = connectorID
        if case .failure(let e) = valueOrErrno({
            sys_drmModeSetCrtc(device.fd, crtcID, framebuffer, 0, 0, &connector, 1, &mode)
        }) {
            preconditionIsNotOurBug(e, "drmModeSetCrtc")
            throw DRMError.from(e, operation: "drmModeSetCrtc", path: device.path)
        }
    }

    func flip(framebuffer: UInt32, damage: [DamageClip], userData: UnsafeMutableRawPointer) throws(Errno) {
        if case .failure(let e) = valueOrErrno({
            sys_drmModePageFlip(device.fd, crtcID, framebuffer, CDRM_MODE_PAGE_FLIP_EVENT, userData)
        }) {
            throw e
        }
    }
}

/// Atomic modesetting (`drmModeAtomicCommit`): the connector, CRTC and planes' properties looked
/// up by name, the mode as a blob, a test-only commit before the first real one, and the
/// frame's damage as `FB_DAMAGE_CLIPS` where the primary plane has that property.
final class AtomicCommitter: ScanoutCommitter {
    let device: DRMDevice
    let builder: AtomicCommitBuilder
    let modeBlob: UInt32
    let api = ModesettingAPI.atomic
    let flipOperation = "drmModeAtomicCommit"
    var takesDamageClips: Bool { builder.hasDamageClips }
    /// The connector that reads back what this CRTC composes (nil: the driver has none).
    let writeback: WritebackConnector?
    /// Where the writeback connector writes: made at the first read-back.
    private var writebackBuffer: DumbBuffer?

    /// Asks for the atomic API, finds the primary plane for the CRTC (`crtcIndex` in the card's
    /// CRTC list) and tests a modeset showing `testFramebuffer`. Throws when any of it is refused.
    init(
        device: DRMDevice, connectorID: UInt32, crtcID: UInt32, crtcIndex: Int, mode: drmModeModeInfo,
        testFramebuffer: UInt32
    ) throws(DRMError) {
        self.device = device
        let fd = device.fd
        for (cap, name) in [(CDRM_CLIENT_CAP_UNIVERSAL_PLANES, "UNIVERSAL_PLANES"), (CDRM_CLIENT_CAP_ATOMIC, "ATOMIC")] {
            if case .failure(let e) = valueOrErrno({ sys_drmSetClientCap(fd, cap, 1) }) {
                throw .system(operation: "drmSetClientCap(DRM_CLIENT_CAP_\(name))", errno: e)
            }
        }
        writeback = Self.writebackConnector(device: device, crtcIndex: crtcIndex)
        let planes = try Self.planes(device: device, crtcID: crtcID, crtcIndex: crtcIndex)
        guard let primary = planes.primary else { throw .noPrimaryPlane(crtc: crtcID) }
        builder = try AtomicCommitBuilder(
            connectorID: connectorID, connectorProperties: device.properties(of: connectorID, type: CDRM_MODE_OBJECT_CONNECTOR).ids,
            crtcID: crtcID, crtcProperties: device.properties(of: crtcID, type: CDRM_MODE_OBJECT_CRTC).ids,
            primary: primary, otherPlanes: planes.others,
            width: Int(mode.hdisplay), height: Int(mode.vdisplay))
        var m = mode
        var blob: UInt32 = 0
        if case .failure(let e) = valueOrErrno({
            sys_drmModeCreatePropertyBlob(fd, &m, MemoryLayout<drmModeModeInfo>.size, &blob)
        }) {
            throw .system(operation: "drmModeCreatePropertyBlob (mode)", errno: e)
        }
        modeBlob = blob
        do {
            try commit(
                builder.modeset(modeBlob: blob, framebuffer: testFramebuffer),
                flags: CDRM_MODE_ATOMIC_TEST_ONLY | CDRM_MODE_ATOMIC_ALLOW_MODESET, userData: nil)
        } catch {
            _ = sys_drmModeDestroyPropertyBlob(fd, blob)
            throw .atomicTestRefused(errno: error)
        }
    }

    deinit { _ = sys_drmModeDestroyPropertyBlob(device.fd, modeBlob) }

    func modeset(framebuffer: UInt32) throws(DRMError) {
        do {
            try commit(
                builder.modeset(modeBlob: modeBlob, framebuffer: framebuffer),
                flags: CDRM_MODE_ATOMIC_ALLOW_MODESET, userData: nil)
        } catch {
            preconditionIsNotOurBug(error, "drmModeAtomicCommit")
            throw DRMError.from(error, operation: "drmModeAtomicCommit (modeset)", path: device.path)
        }
    }

    func flip(framebuffer: UInt32, damage: [DamageClip], userData: UnsafeMutableRawPointer) throws(Errno) {
        var damageBlob: UInt32? = nil
        if builder.hasDamageClips && !damage.isEmpty {
            var blob: UInt32 = 0
            let made = damage.withUnsafeBytes { bytes in
                valueOrErrno { sys_drmModeCreatePropertyBlob(device.fd, bytes.baseAddress!, bytes.count, &blob) }
            }
            // Without the blob the flip is still right: the plane is then taken as all damaged.
            if case .success = made { damageBlob = blob }
        }
        // The kernel keeps its own reference to the blob for as long as the commit needs it.
        defer { if let damageBlob { _ = sys_drmModeDestroyPropertyBlob(device.fd, damageBlob) } }
        try commit(
            builder.flip(framebuffer: framebuffer, damageBlob: damageBlob),
            flags: CDRM_MODE_PAGE_FLIP_EVENT | CDRM_MODE_ATOMIC_NONBLOCK, userData: userData)
    }

    func readBack(framebuffer: UInt32, width: Int, height: Int) throws(DRMError) -> PixelBuffer {
        guard let writeback else {
            throw .readBackUnavailable(reason: "\(device.path) has no writeback connector for this CRTC")
        }
        if writebackBuffer == nil { writebackBuffer = try DumbBuffer(device: device, width: width, height: height) }
        let target = writebackBuffer!
        let fenceSlot = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        fenceSlot.initialize(to: -1)
        defer { fenceSlot.deallocate() }
        // The first read-back routes the writeback connector to the CRTC: a modeset. Blocking, so
        // the commit is done (and the fence stored) when the call returns.
        do {
            try commit(
                builder.readBack(
                    framebuffer: framebuffer, through: writeback, into: target.framebufferID,
                    fencePointer: UInt64(UInt(bitPattern: fenceSlot))),
                flags: CDRM_MODE_ATOMIC_ALLOW_MODESET, userData: nil)
        } catch {
            preconditionIsNotOurBug(error, "drmModeAtomicCommit")
            throw DRMError.from(error, operation: "drmModeAtomicCommit (writeback)", path: device.path)
        }
        let fence = fenceSlot.pointee
        defer { if fence >= 0 { close(fence) } }
        if fence >= 0 {
            var p = pollfd(fd: fence, events: Int16(POLLIN), revents: 0)
            let r = valueOrErrno { poll(&p, 1, 2000) }
            if case .failure(let e) = r { throw .system(operation: "poll (writeback fence)", errno: e) }
            if case .success(0) = r { throw .system(operation: "writeback (2 s without its fence)", errno: Errno(rawValue: ETIMEDOUT)) }
        }
        return PixelBuffer(copying: target.span)
    }

    /// The first writeback connector whose encoder can take the CRTC at `crtcIndex`, with its
    /// properties. Writeback connectors are listed only to clients that ask for them.
    static func writebackConnector(device: DRMDevice, crtcIndex: Int) -> WritebackConnector? {
        let fd = device.fd
        guard case .success = valueOrErrno({ sys_drmSetClientCap(fd, CDRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) }),
            let res = sys_drmModeGetResources(fd)
        else { return nil }
        defer { drmModeFreeResources(res) }
        for i in 0..<Int(res.pointee.count_connectors) {
            guard let c = drmModeGetConnectorCurrent(fd, res.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(c) }
            guard c.pointee.connector_type == CDRM_MODE_CONNECTOR_WRITEBACK, c.pointee.count_encoders > 0,
                let e = sys_drmModeGetEncoder(fd, c.pointee.encoders[0])
            else { continue }
            let possible = e.pointee.possible_crtcs
            drmModeFreeEncoder(e)
            guard ModeChoice.mask(possible, allows: crtcIndex) else { continue }
            let id = c.pointee.connector_id
            if let w = try? WritebackConnector(id: id, properties: device.properties(of: id, type: CDRM_MODE_OBJECT_CONNECTOR).ids) {
                return w
            }
        }
        return nil
    }

    /// One atomic request with `properties`.
    private func commit(_ properties: [AtomicProperty], flags: UInt32, userData: UnsafeMutableRawPointer?) throws(Errno) {
        guard let request = drmModeAtomicAlloc() else { throw Errno(rawValue: ENOMEM) }
        defer { drmModeAtomicFree(request) }
        for p in properties {
            if drmModeAtomicAddProperty(request, p.object, p.property, p.value) < 0 { throw Errno(rawValue: ENOMEM) }
        }
        if case .failure(let e) = valueOrErrno({ sys_drmModeAtomicCommit(device.fd, request, flags, userData) }) { throw e }
    }

    /// The primary plane that can show the CRTC (the one on it now, if any), and the other
    /// planes that are on it.
    static func planes(device: DRMDevice, crtcID: UInt32, crtcIndex: Int) throws(DRMError)
        -> (primary: AtomicCommitBuilder.Plane?, others: [AtomicCommitBuilder.Plane])
    {
        let fd = device.fd
        guard let res = drmModeGetPlaneResources(fd) else {
            throw DRMError.from(.current, operation: "drmModeGetPlaneResources", path: device.path)
        }
        defer { drmModeFreePlaneResources(res) }
        var primary: AtomicCommitBuilder.Plane?
        var primaryIsOnCRTC = false
        var others: [AtomicCommitBuilder.Plane] = []
        for i in 0..<Int(res.pointee.count_planes) {
            guard let plane = drmModeGetPlane(fd, res.pointee.planes[i]) else { continue }
            let id = plane.pointee.plane_id
            let canShow = ModeChoice.mask(plane.pointee.possible_crtcs, allows: crtcIndex)
            let isOnCRTC = plane.pointee.crtc_id == crtcID
            drmModeFreePlane(plane)
            let props = device.properties(of: id, type: CDRM_MODE_OBJECT_PLANE)
            let entry = AtomicCommitBuilder.Plane(id: id, properties: props.ids)
            if props.values["type"] == CDRM_PLANE_TYPE_PRIMARY && canShow && (primary == nil || (isOnCRTC && !primaryIsOnCRTC)) {
                primary = entry
                primaryIsOnCRTC = isOnCRTC
            } else if isOnCRTC {
                others.append(entry)
            }
        }
        return (primary, others)
    }
}
