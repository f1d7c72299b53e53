import Runtime

/// A display mode as the kernel lists it, reduced to what choosing needs (pure, for tests).
package struct ModeInfo: Hashable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    /// Refresh rate in millihertz (computed from the pixel clock, more exact than `vrefresh`).
    package var refreshMilliHz: Int
    /// DRM_MODE_TYPE_PREFERRED: the panel's native mode.
    package var isPreferred: Bool
    /// Position in the connector's mode list.
    package var index: Int
    package init(width: Int, height: Int, refreshMilliHz: Int, isPreferred: Bool = false, index: Int = 0) {
        self.width = width; self.height = height; self.refreshMilliHz = refreshMilliHz
        self.isPreferred = isPreferred; self.index = index
    }
    package var refreshHz: Double { Double(refreshMilliHz) / 1000 }
    package var description: String {
        let hz = (Double(refreshMilliHz) / 10).rounded() / 100
        return "\(width)x\(height)@\(hz)"
    }
}

/// A mode asked for by the config or the command line: "1280x800" or "1280x800@60".
package struct ModeRequest: Hashable, Sendable, CustomStringConvertible {
    package var width: Int
    package var height: Int
    /// Hz; nil takes the highest refresh offered at that size.
    package var refreshHz: Double?
    package init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width; self.height = height; self.refreshHz = refreshHz
    }
    /// Parses "WxH" or "WxH@Hz"; nil when malformed or out of range.
    package init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
            (1...16384).contains(w), (1...16384).contains(h)
        else { return nil }
        var hz: Double? = nil
        if parts.count == 2 {
            guard let r = Double(parts[1]), r.isFinite, r > 0, r <= 1000 else { return nil }
            hz = r
        }
        self.init(width: w, height: h, refreshHz: hz)
    }
    package var description: String { refreshHz.map { "\(width)x\(height)@\($0)" } ?? "\(width)x\(height)" }
}

/// A connector as probed: name ("HDMI-A-1", "Virtual-1"), whether a display is attached, its modes
/// and the encoders that can drive it.
package struct ConnectorInfo: Hashable, Sendable {
    package var id: UInt32
    package var name: String
    package var isConnected: Bool
    package var modes: [ModeInfo]
    /// The encoder currently attached (0 when none).
    package var currentEncoderID: UInt32
    package var encoderIDs: [UInt32]
    /// The turn the connector's "panel orientation" property asks for (a panel mounted sideways
    /// in its case, as the firmware or device tree says); nil without the property.
    package var panelOrientation: Rotation?
    package init(
        id: UInt32, name: String, isConnected: Bool, modes: [ModeInfo], currentEncoderID: UInt32 = 0,
        encoderIDs: [UInt32] = [], panelOrientation: Rotation? = nil
    ) {
        self.id = id; self.name = name; self.isConnected = isConnected; self.modes = modes
        self.currentEncoderID = currentEncoderID; self.encoderIDs = encoderIDs; self.panelOrientation = panelOrientation
    }
}

extension Rotation {
    /// The canvas turn for a value of the "panel orientation" connector property: the side of
    /// the panel that is up. A panel whose left side is up shows the canvas turned clockwise
    /// (fbcon turns its text the same way).
    package init?(panelOrientation name: String) {
        switch name {
        case "Normal": self = .none
        case "Upside Down": self = .upsideDown
        case "Left Side Up": self = .clockwise90
        case "Right Side Up": self = .clockwise270
        default: return nil
        }
    }
}

/// An encoder: the CRTC it drives now (0 when none) and the CRTCs it could drive (a bit per index
/// in the card's CRTC list).
package struct EncoderInfo: Hashable, Sendable {
    package var id: UInt32
    package var currentCRTCID: UInt32
    package var possibleCRTCs: UInt32
    package init(id: UInt32, currentCRTCID: UInt32, possibleCRTCs: UInt32) {
        self.id = id; self.currentCRTCID = currentCRTCID; self.possibleCRTCs = possibleCRTCs
    }
}

/// Connector, mode and CRTC choice as pure functions of what the card reported: the
/// connected connector (or the one the config names), its preferred mode (or the configured one).
package enum ModeChoice {
    /// The named connector (case-insensitive), or the first connected one that lists modes.
    package static func connector(_ connectors: [ConnectorInfo], named name: String?, card: String)
        throws(DRMError) -> ConnectorInfo
    {
        if let name {
            guard let c = connectors.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw .connectorNotFound(name: name, available: connectors.map(\.name))
            }
            guard c.isConnected, !c.modes.isEmpty else { throw .connectorNotConnected(name: c.name) }
            return c
        }
        guard let c = connectors.first(where: { $0.isConnected && !$0.modes.isEmpty }) else {
            throw .noConnectedDisplay(
                card: card,
                connectors: connectors.map {
                    "\($0.name) (\($0.isConnected ? "connected, no modes" : "disconnected"))"
                })
        }
        return c
    }

    /// The requested mode (exact size; the refresh closest to the one asked for, else the
    /// highest), or the preferred mode, or the largest.
    package static func mode(_ modes: [ModeInfo], requested: ModeRequest?) throws(DRMError) -> ModeInfo {
        let available = modes.map(\.description)
        guard !modes.isEmpty else { throw .modeNotFound(requested: requested?.description ?? "any", available: []) }
        if let requested {
            let sized = modes.filter { $0.width == requested.width && $0.height == requested.height }
            guard !sized.isEmpty else { throw .modeNotFound(requested: requested.description, available: available) }
            if let hz = requested.refreshHz {
                let best = sized.min { abs($0.refreshHz - hz) < abs($1.refreshHz - hz) }!
                guard abs(best.refreshHz - hz) < 1.0 else {
                    throw .modeNotFound(requested: requested.description, available: available)
                }
                return best
            }
            return sized.max { ($0.isPreferred ? 1 : 0, $0.refreshMilliHz) < ($1.isPreferred ? 1 : 0, $1.refreshMilliHz) }!
        }
        if let preferred = modes.first(where: \.isPreferred) { return preferred }
        return modes.max { ($0.width * $0.height, $0.refreshMilliHz) < ($1.width * $1.height, $1.refreshMilliHz) }!
    }

    /// The CRTC for `connector`: the one its current encoder drives (keeps the boot console's
    /// pipe, no extra modeset cost), else the first CRTC any of its encoders can drive that is not
    /// in `taken`.
    package static func crtc(
        for connector: ConnectorInfo, encoders: [EncoderInfo], crtcIDs: [UInt32],
        taken: Set<UInt32> = []
    ) -> UInt32? {
        if let current = encoders.first(where: { $0.id == connector.currentEncoderID }),
            current.currentCRTCID != 0, !taken.contains(current.currentCRTCID)
        {
            return current.currentCRTCID
        }
        for encoderID in connector.encoderIDs {
            guard let e = encoders.first(where: { $0.id == encoderID }) else { continue }
            for (i, crtc) in crtcIDs.enumerated() where mask(e.possibleCRTCs, allows: i) {
                if !taken.contains(crtc) { return crtc }
            }
        }
        return nil
    }

    /// A `possible_crtcs` mask (an encoder's, a plane's) allows the CRTC at `crtcIndex` in the
    /// card's CRTC list.
    package static func mask(_ possibleCRTCs: UInt32, allows crtcIndex: Int) -> Bool {
        (0..<32).contains(crtcIndex) && possibleCRTCs & (1 << UInt32(crtcIndex)) != 0
    }
}
