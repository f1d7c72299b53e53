import Runtime
import LinuxDRM
import Testing

/// Fixtures recorded from real cards: QEMU virtio-gpu (as `modetest -c` lists it) and a laptop
/// with an internal eDP panel plus two external ports.
enum Fixtures {
    static let virtioModes = [
        ModeInfo(width: 1280, height: 800, refreshMilliHz: 74_994, isPreferred: true, index: 0),
        ModeInfo(width: 1920, height: 1080, refreshMilliHz: 60_000, index: 1),
        ModeInfo(width: 1280, height: 1024, refreshMilliHz: 75_025, index: 2),
        ModeInfo(width: 1024, height: 768, refreshMilliHz: 75_029, index: 3),
        ModeInfo(width: 1024, height: 768, refreshMilliHz: 60_004, index: 4),
        ModeInfo(width: 800, height: 600, refreshMilliHz: 60_317, index: 5),
    ]
    static let virtio = [
        ConnectorInfo(
            id: 36, name: "Virtual-1", isConnected: true, modes: virtioModes,
            currentEncoderID: 35, encoderIDs: [35])
    ]
    static let virtioEncoders = [EncoderInfo(id: 35, currentCRTCID: 34, possibleCRTCs: 1)]

    static let laptop = [
        ConnectorInfo(
            id: 77, name: "eDP-1", isConnected: true,
            modes: [ModeInfo(width: 1920, height: 1200, refreshMilliHz: 59_950, isPreferred: true)],
            currentEncoderID: 76, encoderIDs: [76]),
        ConnectorInfo(id: 86, name: "HDMI-A-1", isConnected: false, modes: [], encoderIDs: [85]),
        ConnectorInfo(
            id: 95, name: "DP-1", isConnected: true,
            modes: [
                ModeInfo(width: 2560, height: 1440, refreshMilliHz: 59_951, index: 0),
                ModeInfo(width: 2560, height: 1440, refreshMilliHz: 143_912, index: 1),
                ModeInfo(width: 1920, height: 1080, refreshMilliHz: 60_000, index: 2),
            ],
            encoderIDs: [94]),
    ]
    static let laptopEncoders = [
        EncoderInfo(id: 76, currentCRTCID: 51, possibleCRTCs: 0b111),
        EncoderInfo(id: 85, currentCRTCID: 0, possibleCRTCs: 0b111),
        EncoderInfo(id: 94, currentCRTCID: 0, possibleCRTCs: 0b110),
    ]
    static let laptopCRTCs: [UInt32] = [51, 52, 53]
}

@Suite struct ConnectorAndModeChoice {
    @Test func firstConnectedConnectorByDefault() throws {
        #expect(try ModeChoice.connector(Fixtures.laptop, named: nil, card: "card0").name == "eDP-1")
        #expect(try ModeChoice.connector(Fixtures.virtio, named: nil, card: "card0").id == 36)
    }

    @Test func namedConnectorIsCaseInsensitive() throws {
        #expect(try ModeChoice.connector(Fixtures.laptop, named: "dp-1", card: "card0").id == 95)
    }

    @Test func namedConnectorErrors() {
        #expect(throws: DRMError.connectorNotFound(name: "DSI-1", available: ["eDP-1", "HDMI-A-1", "DP-1"])) {
            try ModeChoice.connector(Fixtures.laptop, named: "DSI-1", card: "card0")
        }
        #expect(throws: DRMError.connectorNotConnected(name: "HDMI-A-1")) {
            try ModeChoice.connector(Fixtures.laptop, named: "HDMI-A-1", card: "card0")
        }
    }

    @Test func noConnectedDisplaySaysWhatWasFound() {
        let unplugged = Fixtures.laptop.map { c -> ConnectorInfo in
            var c = c; c.isConnected = false; return c
        }
        do {
            _ = try ModeChoice.connector(unplugged, named: nil, card: "/dev/dri/card0")
            Issue.record("chose a disconnected connector")
        } catch {
            #expect(error.description.contains("no connected display on /dev/dri/card0"))
            #expect(error.description.contains("eDP-1 (disconnected)"))
        }
    }

    @Test func preferredModeByDefault() throws {
        let m = try ModeChoice.mode(Fixtures.virtioModes, requested: nil)
        #expect(m.width == 1280 && m.height == 800 && m.index == 0)
    }

    @Test func largestModeWhenNoneIsPreferred() throws {
        let m = try ModeChoice.mode(Fixtures.laptop[2].modes, requested: nil)
        #expect(m.index == 1)  // 2560x1440, the higher refresh
    }

    @Test func requestedModeAndRefresh() throws {
        #expect(try ModeChoice.mode(Fixtures.virtioModes, requested: ModeRequest(parsing: "1024x768")).index == 3)
        #expect(try ModeChoice.mode(Fixtures.virtioModes, requested: ModeRequest(parsing: "1024x768@60")).index == 4)
        #expect(try ModeChoice.mode(Fixtures.laptop[2].modes, requested: ModeRequest(parsing: "2560x1440@144")).index == 1)
        #expect(throws: DRMError.self) { try ModeChoice.mode(Fixtures.virtioModes, requested: ModeRequest(width: 640, height: 480)) }
        #expect(throws: DRMError.self) { try ModeChoice.mode(Fixtures.virtioModes, requested: ModeRequest(parsing: "1024x768@30")) }
        #expect(throws: DRMError.self) { try ModeChoice.mode([], requested: nil) }
    }

    @Test func crtcChoice() {
        // The boot console's CRTC for the connector already lit.
        #expect(ModeChoice.crtc(for: Fixtures.laptop[0], encoders: Fixtures.laptopEncoders, crtcIDs: Fixtures.laptopCRTCs) == 51)
        // A dark connector gets the first CRTC its encoder can drive that is free.
        #expect(ModeChoice.crtc(for: Fixtures.laptop[2], encoders: Fixtures.laptopEncoders, crtcIDs: Fixtures.laptopCRTCs) == 52)
        #expect(
            ModeChoice.crtc(
                for: Fixtures.laptop[2], encoders: Fixtures.laptopEncoders, crtcIDs: Fixtures.laptopCRTCs,
                taken: [52]) == 53)
        #expect(
            ModeChoice.crtc(
                for: Fixtures.laptop[2], encoders: Fixtures.laptopEncoders, crtcIDs: Fixtures.laptopCRTCs,
                taken: [52, 53]) == nil)
        #expect(ModeChoice.crtc(for: Fixtures.virtio[0], encoders: Fixtures.virtioEncoders, crtcIDs: [34]) == 34)
    }

    @Test func modeRequestParsing() {
        #expect(ModeRequest(parsing: "800x480") == ModeRequest(width: 800, height: 480))
        #expect(ModeRequest(parsing: "800x480@59.94")?.refreshHz == 59.94)
        for bad in ["800", "800x", "x480", "0x0", "800x480@-1", "800x480@abc", "1e3x2"] { #expect(ModeRequest(parsing: bad) == nil) }
    }

    @Test func errnoMapping() {
        #expect(DRMError.from(.permissionDenied, operation: "open", path: "/dev/dri/card0") == .permissionDenied(path: "/dev/dri/card0"))
        #expect(
            DRMError.from(.resourceBusy, operation: "drmSetMaster", path: "/dev/dri/card0") == .masterHeldElsewhere(path: "/dev/dri/card0"))
        #expect(DRMError.from(.permissionDenied, operation: "drmModeSetCrtc", path: "c") == .masterHeldElsewhere(path: "c"))
        #expect(DRMError.from(.noSuchFileOrDirectory, operation: "open", path: "/dev/dri/card9") == .noCard(searched: "/dev/dri/card9"))
        #expect(
            DRMError.from(.noSuchDevice, operation: "drmModePageFlip", path: "c")
                == .system(operation: "drmModePageFlip", errno: .noSuchDevice))
        #expect(DRMError.permissionDenied(path: "/dev/dri/card0").description.contains("video"))
        #expect(Errno.resourceBusy.description.hasPrefix("EBUSY"))
    }

    @Test func missingCardIsAClearError() {
        do {
            _ = try DRMDevice(path: "/nonexistent/dri/card0")
            Issue.record("opened a missing card")
        } catch {
            #expect(error == .noCard(searched: "/nonexistent/dri/card0"))
        }
    }
}

@Suite struct PanelOrientationTests {
    /// The kernel's "panel orientation" enum names, as drm_connector.c spells them.
    @Test func eachOrientationIsATurnOfTheCanvas() {
        #expect(Rotation(panelOrientation: "Normal") == Rotation.none)
        #expect(Rotation(panelOrientation: "Upside Down") == .upsideDown)
        #expect(Rotation(panelOrientation: "Left Side Up") == .clockwise90)
        #expect(Rotation(panelOrientation: "Right Side Up") == .clockwise270)
        #expect(Rotation(panelOrientation: "Sideways") == nil)
    }
}
