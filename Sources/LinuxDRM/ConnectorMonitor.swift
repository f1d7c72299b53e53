import CUdev

/// Says when a display may have been plugged in or out: udev's "change" events on the drm
/// subsystem (the kernel sends one with HOTPLUG=1 when a cable is pulled or plugged, and
/// probing the connectors again after any other change costs little). Poll `fd` for reading,
/// then call `drain()`. Without udevd nothing arrives, and the frame loop's one-second retry
/// while paused still brings a display back.
package final class ConnectorMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Readable when events are waiting (the monitor's socket is non-blocking).
    package let fd: Int32

    package init?() {
        guard let u = udev_new() else { return nil }
        guard let m = udev_monitor_new_from_netlink(u, "udev") else { udev_unref(u); return nil }
        guard udev_monitor_filter_add_match_subsystem_devtype(m, "drm", nil) >= 0,
            udev_monitor_enable_receiving(m) >= 0
        else {
            udev_monitor_unref(m); udev_unref(u)
            return nil
        }
        udev = u
        monitor = m
        fd = udev_monitor_get_fd(m)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Reads every waiting event; true if one was a change (connectors may differ now).
    package func drain() -> Bool {
        var changed = false
        while let device = udev_monitor_receive_device(monitor) {
            if let action = udev_device_get_action(device), String(cString: action) == "change" { changed = true }
            udev_device_unref(device)
        }
        return changed
    }
}
