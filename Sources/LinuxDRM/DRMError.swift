/// What went wrong with the display, phrased for the person setting up the board.
package enum DRMError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No /dev/dri/card* exists, or none can do modesetting.
    case noCard(searched: String)
    /// The card exists but we may not package it (EACCES).
    case permissionDenied(path: String)
    /// Another program (a compositor, a second instance) is DRM master (EBUSY).
    case masterHeldElsewhere(path: String)
    /// The card has no modesetting resources (a render-only node).
    case notModesetting(path: String)
    /// No connector has a display attached.
    case noConnectedDisplay(card: String, connectors: [String])
    /// The configured connector does not exist on this card.
    case connectorNotFound(name: String, available: [String])
    /// The configured connector exists but nothing is plugged in.
    case connectorNotConnected(name: String)
    /// The configured mode is not one the display lists.
    case modeNotFound(requested: String, available: [String])
    /// No CRTC can drive the chosen connector.
    case noCRTC(connector: String)
    /// A KMS object lacks a property atomic modesetting needs (an old or partial driver).
    case missingProperty(object: String, name: String)
    /// No primary plane can show the CRTC's framebuffer.
    case noPrimaryPlane(crtc: UInt32)
    /// The driver refused the atomic test commit (it would refuse the real one too).
    case atomicTestRefused(errno: Errno)
    /// The display cannot read back what it shows (no writeback connector, legacy modesetting,
    /// released); `reason` says which.
    case readBackUnavailable(reason: String)
    /// Any other failure of a call the world can make fail, with the operation's C name.
    case system(operation: String, errno: Errno)

    package var description: String {
        switch self {
        case .noCard(let searched):
            return "no DRM card: nothing usable at \(searched) (is a GPU/display driver loaded? try `ls /dev/dri`)"
        case .permissionDenied(let path):
            return "permission denied opening \(path): run as root or add the user to the 'video' group (EACCES)"
        case .masterHeldElsewhere(let path):
            return "another program holds DRM master on \(path) (a compositor or a second glide?): stop it first (EBUSY)"
        case .notModesetting(let path):
            return "\(path) cannot do modesetting (no connectors/CRTCs): choose another card with --card"
        case .noConnectedDisplay(let card, let connectors):
            return "no connected display on \(card) (connectors: \(connectors.isEmpty ? "none" : connectors.joined(separator: ", ")))"
        case .connectorNotFound(let name, let available):
            return "connector '\(name)' does not exist; available: \(available.joined(separator: ", "))"
        case .connectorNotConnected(let name):
            return "connector '\(name)' has no display connected"
        case .modeNotFound(let requested, let available):
            return "mode \(requested) is not offered by the display; available: \(available.joined(separator: ", "))"
        case .noCRTC(let connector):
            return "no free CRTC can drive connector \(connector)"
        case .missingProperty(let object, let name):
            return "\(object) has no \(name) property"
        case .noPrimaryPlane(let crtc):
            return "no primary plane can show CRTC \(crtc)"
        case .atomicTestRefused(let errno):
            return "the driver refused the atomic test commit: \(errno)"
        case .readBackUnavailable(let reason):
            return "cannot read back the display: \(reason)"
        case .system(let operation, let errno):
            return "\(operation) failed: \(errno)"
        }
    }

    /// Maps a failed call to the error a person can act on: EACCES means permission, EBUSY on
    /// master or modeset means someone else holds the display.
    package static func from(_ errno: Errno, operation: String, path: String) -> DRMError {
        switch errno {
        case .permissionDenied, .operationNotPermitted:
            return operation == "open" ? .permissionDenied(path: path) : .masterHeldElsewhere(path: path)
        case .resourceBusy:
            return .masterHeldElsewhere(path: path)
        case .noSuchFileOrDirectory where operation == "open":
            return .noCard(searched: path)
        default:
            return .system(operation: operation, errno: errno)
        }
    }
}
