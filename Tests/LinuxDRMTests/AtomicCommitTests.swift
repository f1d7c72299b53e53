import Geometry
import LinuxDRM
import Runtime
import Testing

/// What glide sets in its atomic requests, from property ids looked up by name; the damage
/// rectangles it sends; and the API it ends up with when atomic is refused.
@Suite struct AtomicCommitTests {
    static let planeIDs: KMSPropertyIDs = [
        "FB_ID": 17, "CRTC_ID": 20, "SRC_X": 11, "SRC_Y": 12, "SRC_W": 13, "SRC_H": 14,
        "CRTC_X": 15, "CRTC_Y": 16, "CRTC_W": 18, "CRTC_H": 19, "type": 8,
    ]

    static func builder(plane: KMSPropertyIDs = planeIDs, others: [AtomicCommitBuilder.Plane] = []) throws -> AtomicCommitBuilder {
        try AtomicCommitBuilder(
            connectorID: 36, connectorProperties: ["CRTC_ID": 20, "DPMS": 2],
            crtcID: 35, crtcProperties: ["MODE_ID": 23, "ACTIVE": 22],
            primary: .init(id: 31, properties: plane), otherPlanes: others, width: 1280, height: 800)
    }

    @Test func aModesetRoutesTheConnectorSetsTheModeAndFillsThePanel() throws {
        let cursor = AtomicCommitBuilder.Plane(id: 33, properties: ["FB_ID": 17, "CRTC_ID": 20])
        let set = try Self.builder(others: [cursor]).modeset(modeBlob: 90, framebuffer: 42)
        #expect(
            set == [
                AtomicProperty(object: 36, property: 20, value: 35),  // connector → CRTC
                AtomicProperty(object: 35, property: 23, value: 90),  // CRTC mode blob
                AtomicProperty(object: 35, property: 22, value: 1),  // CRTC on
                AtomicProperty(object: 31, property: 17, value: 42),  // plane framebuffer
                AtomicProperty(object: 31, property: 20, value: 35),  // plane → CRTC
                AtomicProperty(object: 31, property: 11, value: 0), AtomicProperty(object: 31, property: 12, value: 0),
                AtomicProperty(object: 31, property: 13, value: 1280 << 16), AtomicProperty(object: 31, property: 14, value: 800 << 16),
                AtomicProperty(object: 31, property: 15, value: 0), AtomicProperty(object: 31, property: 16, value: 0),
                AtomicProperty(object: 31, property: 18, value: 1280), AtomicProperty(object: 31, property: 19, value: 800),
                AtomicProperty(object: 33, property: 17, value: 0),  // the cursor plane off
                AtomicProperty(object: 33, property: 20, value: 0),
            ])
    }

    @Test func aFlipChangesTheFramebufferAndSendsDamageOnlyWhereThePlaneTakesIt() throws {
        let plain = try Self.builder()
        #expect(!plain.hasDamageClips)
        #expect(plain.flip(framebuffer: 43, damageBlob: 91) == [AtomicProperty(object: 31, property: 17, value: 43)])
        var withClips = Self.planeIDs
        withClips["FB_DAMAGE_CLIPS"] = 29
        let clipping = try Self.builder(plane: withClips)
        #expect(clipping.hasDamageClips)
        #expect(
            clipping.flip(framebuffer: 43, damageBlob: 91) == [
                AtomicProperty(object: 31, property: 17, value: 43), AtomicProperty(object: 31, property: 29, value: 91),
            ])
        #expect(clipping.flip(framebuffer: 44, damageBlob: nil) == [AtomicProperty(object: 31, property: 17, value: 44)])
    }

    @Test func aMissingPropertyIsNamed() throws {
        var plane = Self.planeIDs
        plane["SRC_H"] = nil
        #expect(throws: DRMError.missingProperty(object: "plane 31", name: "SRC_H")) { try Self.builder(plane: plane) }
        #expect(throws: DRMError.missingProperty(object: "CRTC 35", name: "ACTIVE")) {
            try AtomicCommitBuilder(
                connectorID: 36, connectorProperties: ["CRTC_ID": 20], crtcID: 35, crtcProperties: ["MODE_ID": 23],
                primary: .init(id: 31, properties: Self.planeIDs), width: 10, height: 10)
        }
        // A plane without FB_ID or CRTC_ID cannot be switched off and is left out.
        let b = try Self.builder(others: [.init(id: 40, properties: ["FB_ID": 17])])
        #expect(b.otherPlanes.isEmpty)
    }

    @Test func aReadBackShowsTheFrameOnScreenThroughTheWritebackConnector() throws {
        let writeback = try WritebackConnector(
            id: 50,
            properties: [
                "CRTC_ID": 20, "WRITEBACK_FB_ID": 61,
                "WRITEBACK_OUT_FENCE_PTR": 62, "WRITEBACK_PIXEL_FORMATS": 63,
            ])
        #expect(
            try Self.builder().readBack(framebuffer: 42, through: writeback, into: 77, fencePointer: 0x7fff_0000) == [
                AtomicProperty(object: 31, property: 17, value: 42),  // the frame on screen stays
                AtomicProperty(object: 50, property: 20, value: 35),  // writeback connector → CRTC
                AtomicProperty(object: 50, property: 61, value: 77),  // into this framebuffer
                AtomicProperty(object: 50, property: 62, value: 0x7fff_0000),  // fence stored here
            ])
        #expect(throws: DRMError.missingProperty(object: "writeback connector 50", name: "WRITEBACK_OUT_FENCE_PTR")) {
            try WritebackConnector(id: 50, properties: ["CRTC_ID": 20, "WRITEBACK_FB_ID": 61])
        }
    }

    @Test func damageClipsArePanelRectanglesInCorners() {
        var region = Region(IntRect(x: 10, y: 20, width: 30, height: 40))
        region.add(IntRect(x: 500, y: 700, width: 200, height: 300))  // past the canvas's bottom
        #expect(
            DamageClip.clips(of: region, rotation: .none, canvasWidth: 800, canvasHeight: 800) == [
                DamageClip(x1: 10, y1: 20, x2: 40, y2: 60), DamageClip(x1: 500, y1: 700, x2: 700, y2: 800),
            ])
        // A canvas 480 wide, 800 high on an 800x480 panel turned 90°: canvas (x, y) is panel (799 - y, x).
        let turned = DamageClip.clips(
            of: Region(IntRect(x: 10, y: 20, width: 30, height: 40)), rotation: .clockwise90,
            canvasWidth: 480, canvasHeight: 800)
        #expect(turned == [DamageClip(x1: 740, y1: 10, x2: 780, y2: 40)])
        // Many rectangles: their bounding box.
        var many = Region()
        for i in 0..<20 { many.add(IntRect(x: i * 20, y: i * 10, width: 5, height: 5)) }
        #expect(
            DamageClip.clips(of: many, rotation: .none, canvasWidth: 1000, canvasHeight: 1000, limit: 16)
                == [DamageClip(x1: 0, y1: 0, x2: 385, y2: 195)])
        #expect(DamageClip.clips(of: Region(), rotation: .none, canvasWidth: 10, canvasHeight: 10).isEmpty)
        // Each clip is the kernel's struct drm_mode_rect: four 32-bit integers.
        #expect(MemoryLayout<DamageClip>.stride == 16)
    }

    @Test func autoFallsBackToLegacyWhenAtomicIsRefusedAndSaysWhy() throws {
        let refused = DRMError.atomicTestRefused(errno: .invalidArgument)
        let refuse = { () throws(DRMError) -> String in throw refused }
        let accept = { () throws(DRMError) -> String in "atomic" }
        let (auto, why) = try chooseCommitter(.auto, atomic: refuse, legacy: { "legacy" })
        #expect(auto == "legacy" && why == refused)
        let (autoOK, none) = try chooseCommitter(.auto, atomic: accept, legacy: { "legacy" })
        #expect(autoOK == "atomic" && none == nil)
        #expect(throws: refused) { try chooseCommitter(.atomic, atomic: refuse, legacy: { "legacy" }) }
        var atomicTried = false
        let (forced, _) = try chooseCommitter(
            .legacy,
            atomic: { () throws(DRMError) -> String in
                atomicTried = true; return "atomic"
            },
            legacy: { "legacy" })
        #expect(forced == "legacy" && !atomicTried)
    }
}
