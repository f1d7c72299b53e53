import Runtime
import CDRM
import Raster
import Geometry
#if canImport(Glibc)
import Glibc
#endif

// MARK: sys_ wrappers: the only call sites of the C functions.

func sys_open(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
func sys_close(_ fd: Int32) -> Int32 { close(fd) }
func sys_drmSetMaster(_ fd: Int32) -> Int32 { drmSetMaster(fd) }
func sys_drmDropMaster(_ fd: Int32) -> Int32 { drmDropMaster(fd) }
func sys_drmIsMaster(_ fd: Int32) -> Bool { drmIsMaster(fd) != 0 }
func sys_drmSetClientCap(_ fd: Int32, _ cap: UInt64, _ value: UInt64) -> Int32 { drmSetClientCap(fd, cap, value) }
func sys_drmGetCap(_ fd: Int32, _ cap: UInt64, _ value: inout UInt64) -> Int32 { drmGetCap(fd, cap, &value) }
func sys_drmModeGetResources(_ fd: Int32) -> drmModeResPtr? { drmModeGetResources(fd) }
func sys_drmModeGetConnector(_ fd: Int32, _ id: UInt32) -> drmModeConnectorPtr? { drmModeGetConnector(fd, id) }
func sys_drmModeGetEncoder(_ fd: Int32, _ id: UInt32) -> drmModeEncoderPtr? { drmModeGetEncoder(fd, id) }
func sys_drmModeGetCrtc(_ fd: Int32, _ id: UInt32) -> drmModeCrtcPtr? { drmModeGetCrtc(fd, id) }
func sys_drmModeSetCrtc(
    _ fd: Int32, _ crtc: UInt32, _ fb: UInt32, _ x: UInt32, _ y: UInt32,
    _ connectors: UnsafeMutablePointer<UInt32>?, _ count: Int32,
    _ mode: UnsafeMutablePointer<drmModeModeInfo>?
) -> Int32 {
    drmModeSetCrtc(fd, crtc, fb, x, y, connectors, count, mode)
}
func sys_drmModePageFlip(
    _ fd: Int32, _ crtc: UInt32, _ fb: UInt32, _ flags: UInt32,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    drmModePageFlip(fd, crtc, fb, flags, userData)
}
func sys_drmHandleEvent(_ fd: Int32, _ context: UnsafeMutablePointer<drmEventContext>) -> Int32 {
    drmHandleEvent(fd, context)
}
func sys_drmModeCreateDumbBuffer(
    _ fd: Int32, _ w: UInt32, _ h: UInt32, _ handle: inout UInt32,
    _ pitch: inout UInt32, _ size: inout UInt64
) -> Int32 {
    drmModeCreateDumbBuffer(fd, w, h, 32, 0, &handle, &pitch, &size)
}
func sys_drmModeDestroyDumbBuffer(_ fd: Int32, _ handle: UInt32) -> Int32 { drmModeDestroyDumbBuffer(fd, handle) }
func sys_drmModeMapDumbBuffer(_ fd: Int32, _ handle: UInt32, _ offset: inout UInt64) -> Int32 {
    drmModeMapDumbBuffer(fd, handle, &offset)
}
func sys_drmModeAddFB2(
    _ fd: Int32, _ w: UInt32, _ h: UInt32, _ handle: UInt32, _ pitch: UInt32,
    _ fbID: inout UInt32
) -> Int32 {
    var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
    var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
    var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
    return withUnsafeMutablePointer(to: &handles) { hs in
        withUnsafeMutablePointer(to: &pitches) { ps in
            withUnsafeMutablePointer(to: &offsets) { os in
                hs.withMemoryRebound(to: UInt32.self, capacity: 4) { hp in
                    ps.withMemoryRebound(to: UInt32.self, capacity: 4) { pp in
                        os.withMemoryRebound(to: UInt32.self, capacity: 4) { op in
                            drmModeAddFB2(fd, w, h, CDRM_FORMAT_XRGB8888, hp, pp, op, &fbID, 0)
                        }
                    }
                }
            }
        }
    }
}
func sys_drmModeRmFB(_ fd: Int32, _ fbID: UInt32) -> Int32 { drmModeRmFB(fd, fbID) }
func sys_mmap(_ length: Int, _ fd: Int32, _ offset: UInt64) -> UnsafeMutableRawPointer? {
    let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
    return p == MAP_FAILED ? nil : p
}
func sys_munmap(_ p: UnsafeMutableRawPointer, _ length: Int) -> Int32 { munmap(p, length) }

// MARK: Device

/// An open DRM card (a `final class`: buffers share it and keep the descriptor alive).
/// The corresponding C calls are `open`, `drmSetMaster`, `drmModeGetResources`.
package final class DRMDevice {
    package let path: String
    package let fd: Int32

    /// Opens `path` read-write. Environmental failures throw: no such card, EACCES.
    package init(path: String) throws(DRMError) {
        switch valueOrErrno({ sys_open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK) }) {
        case .success(let fd): self.fd = fd
        case .failure(let e): throw DRMError.from(e, operation: "open", path: path)
        }
        self.path = path
    }

    deinit {
        if case .failure(let e) = valueOrErrno(retryOnInterrupt: false, { sys_close(fd) }) {
            preconditionIsNotOurBug(e, "close")
        }
    }

    /// The configured card, or the first /dev/dri/card* that can do modesetting and has a
    /// connected display. Errors say what was found and why it did not do.
    package static func open(configured: String?) throws(DRMError) -> DRMDevice {
        if let configured {
            let d = try DRMDevice(path: configured)
            guard d.hasModesetting else { throw .notModesetting(path: configured) }
            return d
        }
        var firstError: DRMError? = nil
        var fallback: DRMDevice? = nil
        for i in 0..<16 {
            let path = "/dev/dri/card\(i)"
            let d: DRMDevice
            do { d = try DRMDevice(path: path) } catch {
                if case .noCard = error { continue }
                if firstError == nil { firstError = error }
                continue
            }
            guard d.hasModesetting else { continue }
            if let probe = try? d.probe(), probe.connectors.contains(where: \.isConnected) { return d }
            if fallback == nil { fallback = d }
        }
        if let fallback { return fallback }  // choosing its connector will say "no connected display"
        throw firstError ?? .noCard(searched: "/dev/dri/card*")
    }

    var hasModesetting: Bool {
        guard let res = sys_drmModeGetResources(fd) else { return false }
        defer { drmModeFreeResources(res) }
        return res.pointee.count_crtcs > 0 && res.pointee.count_connectors > 0
    }

    /// Becomes DRM master. EBUSY/EACCES mean another program holds the display.
    package func becomeMaster() throws(DRMError) {
        if sys_drmIsMaster(fd) { return }
        if case .failure(let e) = valueOrErrno({ sys_drmSetMaster(fd) }) {
            preconditionIsNotOurBug(e, "drmSetMaster")
            throw DRMError.from(e, operation: "drmSetMaster", path: path)
        }
    }

    /// Gives DRM master up (VT switch, seat handover, exit). Failures are harmless and ignored.
    package func dropMaster() { _ = sys_drmDropMaster(fd) }

    package var isMaster: Bool { sys_drmIsMaster(fd) }

    /// What the card has: connectors (with modes), encoders and CRTCs, and the raw modes per
    /// connector id for the modeset.
    package struct Probe {
        package var connectors: [ConnectorInfo]
        package var encoders: [EncoderInfo]
        package var crtcIDs: [UInt32]
        var rawModes: [UInt32: [drmModeModeInfo]]
    }

    /// A KMS object's properties: ids and current values by name.
    func properties(of object: UInt32, type: UInt32) -> (ids: KMSPropertyIDs, values: [String: UInt64]) {
        guard let props = drmModeObjectGetProperties(fd, object, type) else { return ([:], [:]) }
        defer { drmModeFreeObjectProperties(props) }
        var ids: KMSPropertyIDs = [:]
        var values: [String: UInt64] = [:]
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            let name = fixedCString(prop.pointee.name)
            ids[name] = prop.pointee.prop_id
            values[name] = props.pointee.prop_values[i]
            drmModeFreeProperty(prop)
        }
        return (ids, values)
    }

    /// The value of the connector's "panel orientation" enum property, as a turn.
    func panelOrientation(connector: UInt32) -> Rotation? {
        let props = properties(of: connector, type: CDRM_MODE_OBJECT_CONNECTOR)
        guard let id = props.ids["panel orientation"], let value = props.values["panel orientation"],
            let prop = drmModeGetProperty(fd, id)
        else { return nil }
        defer { drmModeFreeProperty(prop) }
        let names = UnsafeBufferPointer(start: prop.pointee.enums, count: Int(prop.pointee.count_enums))
        return names.first { $0.value == value }.flatMap { Rotation(panelOrientation: fixedCString($0.name)) }
    }

    /// Reads the card's resources (`drmModeGetResources`, `drmModeGetConnector`,
    /// `drmModeGetEncoder`).
    package func probe() throws(DRMError) -> Probe {
        guard let res = sys_drmModeGetResources(fd) else {
            throw DRMError.from(.current, operation: "drmModeGetResources", path: path)
        }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        let crtcs = (0..<Int(r.count_crtcs)).map { r.crtcs[$0] }
        var encoders: [EncoderInfo] = []
        for i in 0..<Int(r.count_encoders) {
            guard let e = sys_drmModeGetEncoder(fd, r.encoders[i]) else { continue }
            encoders.append(
                EncoderInfo(
                    id: e.pointee.encoder_id, currentCRTCID: e.pointee.crtc_id,
                    possibleCRTCs: e.pointee.possible_crtcs))
            drmModeFreeEncoder(e)
        }
        var connectors: [ConnectorInfo] = []
        var raw: [UInt32: [drmModeModeInfo]] = [:]
        for i in 0..<Int(r.count_connectors) {
            guard let cp = sys_drmModeGetConnector(fd, r.connectors[i]) else { continue }
            let c = cp.pointee
            let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
            let modes = (0..<Int(c.count_modes)).map { c.modes[$0] }
            raw[c.connector_id] = modes
            let infos = modes.enumerated().map { i, m in
                ModeInfo(
                    width: Int(m.hdisplay), height: Int(m.vdisplay), refreshMilliHz: refreshMilliHz(m),
                    isPreferred: m.type & CDRM_MODE_TYPE_PREFERRED != 0, index: i)
            }
            connectors.append(
                ConnectorInfo(
                    id: c.connector_id, name: "\(typeName)-\(c.connector_type_id)",
                    isConnected: c.connection == DRM_MODE_CONNECTED, modes: infos,
                    currentEncoderID: c.encoder_id,
                    encoderIDs: (0..<Int(c.count_encoders)).map { c.encoders[$0] },
                    panelOrientation: panelOrientation(connector: c.connector_id)))
            drmModeFreeConnector(cp)
        }
        return Probe(connectors: connectors, encoders: encoders, crtcIDs: crtcs, rawModes: raw)
    }
}

func refreshMilliHz(_ m: drmModeModeInfo) -> Int {
    let total = Int(m.htotal) * Int(m.vtotal)
    guard total > 0, m.clock > 0 else { return Int(m.vrefresh) * 1000 }
    var mhz = Int(m.clock) * 1_000_000 / total
    if m.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { mhz *= 2 }
    if m.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { mhz /= 2 }
    return mhz
}

// MARK: Dumb buffer

/// A CPU-mapped scanout buffer (XRGB8888) with its framebuffer id. Write-combined: written,
/// never read. The corresponding C calls are `drmModeCreateDumbBuffer`, `drmModeAddFB2`,
/// `drmModeMapDumbBuffer` + `mmap`; `deinit` undoes them in reverse.
package final class DumbBuffer {
    package let device: DRMDevice
    package let width: Int
    package let height: Int
    let handle: UInt32
    let pitch: UInt32
    let size: Int
    let framebufferID: UInt32
    let mapping: UnsafeMutableRawPointer
    /// Canvas pixels this buffer still lacks (damage presented into the other buffers since it
    /// was last drawn).
    var stale: Region

    init(device: DRMDevice, width: Int, height: Int) throws(DRMError) {
        self.device = device; self.width = width; self.height = height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        if case .failure(let e) = valueOrErrno({
            sys_drmModeCreateDumbBuffer(device.fd, UInt32(width), UInt32(height), &handle, &pitch, &size)
        }) {
            throw DRMError.from(e, operation: "drmModeCreateDumbBuffer", path: device.path)
        }
        var fb: UInt32 = 0
        if case .failure(let e) = valueOrErrno({ sys_drmModeAddFB2(device.fd, UInt32(width), UInt32(height), handle, pitch, &fb) }) {
            _ = sys_drmModeDestroyDumbBuffer(device.fd, handle)
            throw DRMError.from(e, operation: "drmModeAddFB2", path: device.path)
        }
        var offset: UInt64 = 0
        if case .failure(let e) = valueOrErrno({ sys_drmModeMapDumbBuffer(device.fd, handle, &offset) }) {
            _ = sys_drmModeRmFB(device.fd, fb); _ = sys_drmModeDestroyDumbBuffer(device.fd, handle)
            throw DRMError.from(e, operation: "drmModeMapDumbBuffer", path: device.path)
        }
        guard let p = sys_mmap(Int(size), device.fd, offset) else {
            let e = Errno.current
            _ = sys_drmModeRmFB(device.fd, fb); _ = sys_drmModeDestroyDumbBuffer(device.fd, handle)
            throw DRMError.from(e, operation: "mmap", path: device.path)
        }
        self.handle = handle; self.pitch = pitch; self.size = Int(size); self.framebufferID = fb
        self.mapping = p
        self.stale = Region()
    }

    deinit {
        _ = sys_munmap(mapping, size)
        _ = sys_drmModeRmFB(device.fd, framebufferID)
        _ = sys_drmModeDestroyDumbBuffer(device.fd, handle)
    }

    /// The mapped pixels (pitch may exceed width * 4).
    var span: PixelSpan {
        PixelSpan(
            base: mapping.bindMemory(to: UInt32.self, capacity: size / 4),
            width: width, height: height, stride: Int(pitch) / 4)
    }
}

/// The text in a fixed-size C `char` array of a kernel struct (a property's or an entry's name).
func fixedCString<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
