import Geometry
import Raster
import Runtime

/// How frames reach the CRTC: the kernel's atomic API, or the legacy calls (`drmModeSetCrtc`,
/// `drmModePageFlip`). `auto` takes atomic where the driver offers it and its test commit
/// passes, legacy otherwise.
package enum ModesettingAPI: String, Sendable, CaseIterable, CustomStringConvertible {
    case auto, atomic, legacy
    package var description: String { rawValue }
}

/// One property of a KMS object set to a value in an atomic request.
package struct AtomicProperty: Hashable, Sendable, CustomStringConvertible {
    package var object: UInt32
    package var property: UInt32
    package var value: UInt64
    package init(object: UInt32, property: UInt32, value: UInt64) {
        self.object = object; self.property = property; self.value = value
    }
    package var description: String { "\(object).\(property)=\(value)" }
}

/// A rectangle of a framebuffer as the kernel's `drm_mode_rect` holds it: corners, exclusive.
package struct DamageClip: Hashable, Sendable {
    package var x1: Int32, y1: Int32, x2: Int32, y2: Int32
    package init(x1: Int32, y1: Int32, x2: Int32, y2: Int32) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }

    /// The panel rectangles that show `region` of the canvas (rotation applied), clipped to the
    /// canvas; empty ones dropped. More than `limit` rectangles become their bounding box: a
    /// driver walks every clip, and one box costs it less than hundreds of slivers.
    package static func clips(
        of region: Region, rotation: Rotation, canvasWidth cw: Int, canvasHeight ch: Int,
        limit: Int = 16
    ) -> [DamageClip] {
        let canvas = IntRect(x: 0, y: 0, width: cw, height: ch)
        var rects = region.rects.map { $0.intersection(canvas) }.filter { !$0.isEmpty }
        if rects.count > limit { rects = [rects.reduce(IntRect.zero) { $0.union($1) }] }
        return rects.map {
            let p = rotation.panelRect(canvasRect: $0, canvasWidth: cw, canvasHeight: ch)
            return DamageClip(x1: Int32(p.x), y1: Int32(p.y), x2: Int32(p.maxX), y2: Int32(p.maxY))
        }
    }
}

/// The property ids of one KMS object, by the names the kernel gives them.
package typealias KMSPropertyIDs = [String: UInt32]

/// Which properties glide sets in its atomic requests, from the objects' property ids. Pure:
/// the ids are looked up on the device by `AtomicCommitter`; this only says what to set.
///
/// A modeset routes the connector to the CRTC, gives the CRTC the mode blob and switches it on,
/// and puts the framebuffer on the primary plane at full size (source rectangle in 16.16 fixed
/// point), switching off any other plane left on the CRTC (a previous compositor's cursor or
/// overlay). A flip only changes the primary plane's framebuffer, with the frame's damage as
/// `FB_DAMAGE_CLIPS` where the plane has that property.
package struct AtomicCommitBuilder: Sendable {
    package struct Plane: Sendable {
        package var id: UInt32
        package var properties: KMSPropertyIDs
        package init(id: UInt32, properties: KMSPropertyIDs) { self.id = id; self.properties = properties }
    }

    package static let connectorProperties = ["CRTC_ID"]
    package static let crtcProperties = ["MODE_ID", "ACTIVE"]
    package static let planeProperties = [
        "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
        "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H",
    ]

    package let connectorID: UInt32
    package let crtcID: UInt32
    package let primary: Plane
    /// Other planes that were on the CRTC: switched off by the modeset.
    package let otherPlanes: [Plane]
    package let width: Int
    package let height: Int
    let connector: KMSPropertyIDs
    let crtc: KMSPropertyIDs

    /// Throws `.missingProperty` when an object lacks a property the requests need.
    package init(
        connectorID: UInt32, connectorProperties: KMSPropertyIDs, crtcID: UInt32, crtcProperties: KMSPropertyIDs,
        primary: Plane, otherPlanes: [Plane] = [], width: Int, height: Int
    ) throws(DRMError) {
        for (object, names, ids) in [
            ("connector \(connectorID)", Self.connectorProperties, connectorProperties),
            ("CRTC \(crtcID)", Self.crtcProperties, crtcProperties),
            ("plane \(primary.id)", Self.planeProperties, primary.properties),
        ] {
            if let missing = names.first(where: { ids[$0] == nil }) { throw .missingProperty(object: object, name: missing) }
        }
        self.connectorID = connectorID
        self.crtcID = crtcID
        self.primary = primary
        self.otherPlanes = otherPlanes.filter { $0.properties["FB_ID"] != nil && $0.properties["CRTC_ID"] != nil }
        self.width = width
        self.height = height
        connector = connectorProperties
        crtc = crtcProperties
    }

    /// The primary plane takes damage rectangles.
    package var hasDamageClips: Bool { primary.properties["FB_DAMAGE_CLIPS"] != nil }

    /// The full state for showing `framebuffer` in the mode held by blob `modeBlob`.
    package func modeset(modeBlob: UInt32, framebuffer: UInt32) -> [AtomicProperty] {
        let p = primary.properties
        func plane(_ name: String, _ value: UInt64) -> AtomicProperty {
            AtomicProperty(object: primary.id, property: p[name]!, value: value)
        }
        var set = [
            AtomicProperty(object: connectorID, property: connector["CRTC_ID"]!, value: UInt64(crtcID)),
            AtomicProperty(object: crtcID, property: crtc["MODE_ID"]!, value: UInt64(modeBlob)),
            AtomicProperty(object: crtcID, property: crtc["ACTIVE"]!, value: 1),
            plane("FB_ID", UInt64(framebuffer)),
            plane("CRTC_ID", UInt64(crtcID)),
            plane("SRC_X", 0), plane("SRC_Y", 0),
            plane("SRC_W", UInt64(width) << 16), plane("SRC_H", UInt64(height) << 16),
            plane("CRTC_X", 0), plane("CRTC_Y", 0),
            plane("CRTC_W", UInt64(width)), plane("CRTC_H", UInt64(height)),
        ]
        for other in otherPlanes {
            set.append(AtomicProperty(object: other.id, property: other.properties["FB_ID"]!, value: 0))
            set.append(AtomicProperty(object: other.id, property: other.properties["CRTC_ID"]!, value: 0))
        }
        return set
    }

    /// A page flip to `framebuffer`; `damageBlob` (a blob of `DamageClip`s) goes with it when
    /// the plane takes damage clips.
    package func flip(framebuffer: UInt32, damageBlob: UInt32?) -> [AtomicProperty] {
        var set = [AtomicProperty(object: primary.id, property: primary.properties["FB_ID"]!, value: UInt64(framebuffer))]
        if let damageBlob, let clips = primary.properties["FB_DAMAGE_CLIPS"] {
            set.append(AtomicProperty(object: primary.id, property: clips, value: UInt64(damageBlob)))
        }
        return set
    }
}

/// A writeback connector: it writes what the CRTC composes into a framebuffer of its own, so
/// the pixels the display engine sent to the panel can be read back (vkms has one, as do many
/// SoC display engines). Its properties are looked up by name like the others.
package struct WritebackConnector: Sendable {
    package static let properties = ["CRTC_ID", "WRITEBACK_FB_ID", "WRITEBACK_OUT_FENCE_PTR"]
    package let id: UInt32
    let ids: KMSPropertyIDs

    /// Throws `.missingProperty` when the connector lacks one of `properties`.
    package init(id: UInt32, properties: KMSPropertyIDs) throws(DRMError) {
        if let missing = Self.properties.first(where: { properties[$0] == nil }) {
            throw .missingProperty(object: "writeback connector \(id)", name: missing)
        }
        self.id = id
        ids = properties
    }
}

extension AtomicCommitBuilder {
    /// One composition of the CRTC showing `framebuffer`, written into `writebackFramebuffer`; the
    /// kernel stores the fence that signals its end at the address `fencePointer`. It routes the
    /// writeback connector to the CRTC (a modeset the first time).
    package func readBack(
        framebuffer: UInt32, through writeback: WritebackConnector, into writebackFramebuffer: UInt32,
        fencePointer: UInt64
    ) -> [AtomicProperty] {
        flip(framebuffer: framebuffer, damageBlob: nil) + [
            AtomicProperty(object: writeback.id, property: writeback.ids["CRTC_ID"]!, value: UInt64(crtcID)),
            AtomicProperty(object: writeback.id, property: writeback.ids["WRITEBACK_FB_ID"]!, value: UInt64(writebackFramebuffer)),
            AtomicProperty(object: writeback.id, property: writeback.ids["WRITEBACK_OUT_FENCE_PTR"]!, value: fencePointer),
        ]
    }
}

/// What `ModesettingAPI` comes to on a device: the requested API, or legacy when `auto` finds
/// atomic refused (with the reason, to log). An explicit `atomic` that is refused is an error.
package func chooseCommitter<Committer>(
    _ requested: ModesettingAPI,
    atomic: () throws(DRMError) -> Committer,
    legacy: () -> Committer
) throws(DRMError) -> (Committer, atomicRefusal: DRMError?) {
    switch requested {
    case .legacy:
        return (legacy(), nil)
    case .atomic:
        return (try atomic(), nil)
    case .auto:
        do { return (try atomic(), nil) } catch { return (legacy(), error) }
    }
}
