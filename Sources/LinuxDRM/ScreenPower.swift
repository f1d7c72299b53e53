import CDRM
import Runtime
#if canImport(Glibc)
import Glibc
#endif

func sys_drmModeConnectorSetProperty(_ fd: Int32, _ connector: UInt32, _ property: UInt32, _ value: UInt64) -> Int32 {
    drmModeConnectorSetProperty(fd, connector, property, value)
}

/// The connector's DPMS property: the display engine stops sending frames and the panel sleeps,
/// keeping the mode and the buffers; On brings back the frame that was on screen. Atomic
/// drivers take it too (it switches the CRTC's ACTIVE).
package final class DPMSPower: ScreenPower {
    package let name: String
    let device: DRMDevice
    let connectorID: UInt32
    let property: UInt32

    /// Throws `.missingProperty` when the connector has no DPMS property.
    package init(display: DRMDisplay) throws(DRMError) {
        device = display.device
        connectorID = display.connector.id
        name = "DPMS of \(display.connector.name)"
        guard let p = device.properties(of: connectorID, type: CDRM_MODE_OBJECT_CONNECTOR).ids["DPMS"] else {
            throw .missingProperty(object: "connector \(display.connector.name)", name: "DPMS")
        }
        property = p
    }

    package func setPower(on: Bool) throws {
        if case .failure(let e) = valueOrErrno({
            sys_drmModeConnectorSetProperty(device.fd, connectorID, property, on ? CDRM_MODE_DPMS_ON : CDRM_MODE_DPMS_OFF)
        }) {
            preconditionIsNotOurBug(e, "drmModeConnectorSetProperty")
            throw DRMError.from(e, operation: "drmModeConnectorSetProperty (DPMS \(on ? "On" : "Off"))", path: device.path)
        }
    }
}

/// A panel backlight in sysfs (`/sys/class/backlight/NAME`): its brightness, and off and on
/// through `bl_power` where the driver has it (brightness 0 where it does not).
package final class Backlight: ScreenPower {
    package let name: String
    package let directory: String
    package let maxBrightness: Int
    /// The brightness to come back to after off.
    package private(set) var level: Int

    /// The backlight `device` (a name under `root`), or the first there. Throws `BacklightError`
    /// when there is none or it cannot be read.
    package init(device: String? = nil, root: String = "/sys/class/backlight") throws(BacklightError) {
        let chosen: String
        if let device {
            guard !device.contains("/"), device != "..", device != "." else { throw .noDevice("'\(device)' is not a backlight name") }
            chosen = device
        } else {
            guard let names = Sysfs.names(in: root) else { throw .noDevice("no \(root): this board has no backlight the kernel controls") }
            guard let first = names.first else { throw .noDevice("\(root) is empty: this board has no backlight the kernel controls") }
            chosen = first
        }
        directory = "\(root)/\(chosen)"
        name = "backlight \(chosen)"
        maxBrightness = try Self.readNumber("\(directory)/max_brightness")
        guard maxBrightness > 0 else { throw .unreadable(path: "\(directory)/max_brightness", reason: "not a positive number") }
        let current = try Self.readNumber("\(directory)/brightness")
        level = current > 0 ? current : maxBrightness
    }

    /// Sets the brightness to `percent` (1...100) of the maximum, at least 1 step.
    package func setBrightness(percent: Int) throws(BacklightError) {
        let p = min(max(percent, 1), 100)
        let value = max(1, (maxBrightness * p + 50) / 100)
        try Self.write("\(value)", to: "\(directory)/brightness")
        level = value
    }

    package func setPower(on: Bool) throws {
        if access("\(directory)/bl_power", F_OK) == 0 {
            // FB_BLANK_UNBLANK and FB_BLANK_POWERDOWN.
            try Self.write(on ? "0" : "4", to: "\(directory)/bl_power")
        } else {
            try Self.write(on ? "\(level)" : "0", to: "\(directory)/brightness")
        }
    }

    static func readNumber(_ path: String) throws(BacklightError) -> Int {
        let text: String
        switch Sysfs.text(path, limit: 64) {
        case .success(let t): text = t
        case .failure(let e): throw .unreadable(path: path, reason: "\(e)")
        }
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let value = Int(words[0]), value >= 0 else {
            throw .unreadable(path: path, reason: "'\(text.prefix(20))' is not a number")
        }
        return value
    }

    static func write(_ text: String, to path: String) throws(BacklightError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw .unwritable(path: path, errno: .current) }
        defer { close(fd) }
        let bytes = Array((text + "\n").utf8)
        if case .failure(let e) = valueOrErrno({ bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }) {
            throw .unwritable(path: path, errno: e)
        }
    }
}

/// A backlight that is not there or refuses.
package enum BacklightError: Error, Hashable, Sendable, CustomStringConvertible {
    case noDevice(String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, errno: Errno)

    package var description: String {
        switch self {
        case .noDevice(let why): return "no backlight: \(why)"
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .unwritable(let path, let errno):
            return
                "cannot write \(path): \(errno)\(errno == .permissionDenied ? " (the udev rules give the video group write access)" : "")"
        }
    }
}
