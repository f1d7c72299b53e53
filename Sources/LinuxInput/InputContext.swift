import CInput
import Geometry
import Logging
import AppContract
#if canImport(Glibc)
import Glibc
#endif

/// Why input could not start, phrased for the person setting up the board.
package enum InputError: Error, Hashable, Sendable, CustomStringConvertible {
    case udevUnavailable
    case seatUnavailable(seat: String)
    case deviceUnavailable(path: String, reason: String)
    case contextUnavailable

    package var description: String {
        switch self {
        case .udevUnavailable: return "udev_new failed: is /run/udev there (systemd-udevd running)?"
        case .seatUnavailable(let seat):
            return
                "libinput could not assign seat '\(seat)' (is udevd running and may we read /dev/input? run as root or add the user to the 'input' group)"
        case .deviceUnavailable(let path, let reason): return "input device \(path) cannot be used: \(reason)"
        case .contextUnavailable: return "libinput context could not be created"
        }
    }
}

// MARK: sys_ wrappers (the only call sites of the C functions).

func sys_open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }
func sys_close(_ fd: Int32) -> Int32 { close(fd) }
func sys_libinput_dispatch(_ li: OpaquePointer) -> Int32 { libinput_dispatch(li) }
func sys_libinput_get_event(_ li: OpaquePointer) -> OpaquePointer? { libinput_get_event(li) }

/// libinput's device access: plain open(2)/close(2) (we run as root or in the input group; no
/// logind). Returns a negative errno on failure, as libinput wants.
private func makeInputInterface() -> UnsafeMutablePointer<libinput_interface> {
    let p = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
    p.initialize(
        to: libinput_interface(
            open_restricted: { path, flags, _ in
                guard let path else { return -EINVAL }
                while true {
                    let fd = sys_open(path, flags | O_CLOEXEC)
                    if fd >= 0 { return fd }
                    if errno != EINTR { return -errno }
                }
            },
            close_restricted: { fd, _ in _ = sys_close(fd) }))
    return p
}

/// A libinput context (a `final class`: it owns the udev and libinput references and releases
/// them in `deinit`). Poll `fd`; when readable call `dispatch()` for events in canvas pixels with
/// kernel timestamps (CLOCK_MONOTONIC seconds). With the udev seat, devices plugged in later
/// appear by themselves (DEVICE_ADDED), without a restart.
package final class InputContext {
    package enum Backend: Hashable, Sendable {
        /// All input devices of a udev seat ("seat0").
        case udev(seat: String)
        /// Exactly these /dev/input/event* paths (no hotplug).
        case paths([String])
    }

    package var transform: TouchTransform
    /// Turn a pointer's left button into touch slot 0 (a mouse or QEMU's tablet as a finger).
    package var pointerAsTouch: Bool
    /// Pixels scrolled per wheel detent.
    package var wheelStep: Double = 48
    /// Where messages about devices go (added, removed).
    package var log: Logger

    private let li: OpaquePointer
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let udev: OpaquePointer?
    private var assembler = TouchFrameAssembler()
    private var pointer: Point
    private var pointerTouchDown = false
    /// Names of devices currently present.
    package private(set) var devices: [String] = []
    /// Turns physical keys into typed text; nil: keys only.
    package var keymap: Keymap?
    /// Devices with letter keys (a keyboard or a barcode scanner, not a power button).
    package private(set) var keyboards: Set<String> = []
    /// Called when the first keyboard arrives or the last one leaves.
    package var onKeyboardsChanged: ((Bool) -> Void)?

    package init(
        backend: Backend, transform: TouchTransform, pointerAsTouch: Bool = false,
        log: Logger = .discarding
    ) throws(InputError) {
        self.transform = transform
        self.pointerAsTouch = pointerAsTouch
        self.log = log
        pointer = Point(x: Double(transform.canvasWidth) / 2, y: Double(transform.canvasHeight) / 2)
        let inputInterface = makeInputInterface()
        interface = inputInterface
        switch backend {
        case .udev(let seat):
            guard let u = udev_new() else { throw .udevUnavailable }
            guard let l = libinput_udev_create_context(inputInterface, nil, u) else {
                udev_unref(u); inputInterface.deallocate(); throw .contextUnavailable
            }
            guard libinput_udev_assign_seat(l, seat) == 0 else {
                libinput_unref(l); udev_unref(u); inputInterface.deallocate(); throw .seatUnavailable(seat: seat)
            }
            udev = u; li = l
        case .paths(let paths):
            guard let l = libinput_path_create_context(inputInterface, nil) else {
                inputInterface.deallocate(); throw .contextUnavailable
            }
            for path in paths {
                if libinput_path_add_device(l, path) == nil {
                    let reason =
                        access(path, R_OK) == 0
                        ? "libinput rejected it (not an input event device?)"
                        : String(cString: strerror(errno))
                    libinput_unref(l)
                    inputInterface.deallocate()
                    throw .deviceUnavailable(path: path, reason: reason)
                }
            }
            udev = nil; li = l
        }
    }

    deinit {
        libinput_unref(li)
        if let udev { udev_unref(udev) }
        interface.deallocate()
    }

    /// The descriptor to poll.
    package var fd: Int32 { libinput_get_fd(li) }

    /// Reads what the kernel has (`libinput_dispatch`) and converts it. Touch events come grouped
    /// and closed by `.touchFrame`.
    package func dispatch() -> [InputEvent] {
        _ = sys_libinput_dispatch(li)
        var out: [InputEvent] = []
        while let ev = sys_libinput_get_event(li) {
            convert(ev, into: &out)
            libinput_event_destroy(ev)
        }
        return out
    }

    private func noteKeyboard(_ node: String, present: Bool) {
        let before = !keyboards.isEmpty
        if present { keyboards.insert(node) } else { keyboards.remove(node) }
        if before != !keyboards.isEmpty { onKeyboardsChanged?(!keyboards.isEmpty) }
    }

    private func emit(_ e: InputEvent, _ out: inout [InputEvent]) { out.append(contentsOf: assembler.add(e)) }

    private func convert(_ ev: OpaquePointer, into out: inout [InputEvent]) {
        let type = libinput_event_get_type(ev)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED, LIBINPUT_EVENT_DEVICE_REMOVED:
            convertDevice(ev, added: type == LIBINPUT_EVENT_DEVICE_ADDED, into: &out)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL,
            LIBINPUT_EVENT_TOUCH_FRAME:
            guard let t = libinput_event_get_touch_event(ev) else { return }
            convertTouch(t, type, into: &out)
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            guard let k = libinput_event_get_keyboard_event(ev) else { return }
            convertKey(k, into: &out)
        case LIBINPUT_EVENT_POINTER_MOTION, LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            guard let p = libinput_event_get_pointer_event(ev) else { return }
            convertPointerMotion(p, relative: type == LIBINPUT_EVENT_POINTER_MOTION, into: &out)
        case LIBINPUT_EVENT_POINTER_BUTTON:
            guard let p = libinput_event_get_pointer_event(ev) else { return }
            convertPointerButton(p, into: &out)
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER,
            LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            guard let p = libinput_event_get_pointer_event(ev) else { return }
            convertScroll(p, type, into: &out)
        default:
            break
        }
    }

    /// A device came or went: the device list, the keyboards, the log, and a removed
    /// touchscreen's touches cancelled.
    private func convertDevice(_ ev: OpaquePointer, added: Bool, into out: inout [InputEvent]) {
        let dev = libinput_event_get_device(ev)
        let name = String(cString: libinput_device_get_name(dev))
        let node = String(cString: libinput_device_get_sysname(dev))
        if added {
            devices.append(name)
            var caps: [String] = []
            if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { caps.append("touch") }
            if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 {
                caps.append("keyboard")
                // KEY_A: letters, so it types (a power button or a remote's keys do not).
                if libinput_device_keyboard_has_key(dev, 30) > 0 { noteKeyboard(node, present: true) }
            }
            if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_POINTER) != 0 { caps.append("pointer") }
            log.info("input device added: \(name) (\(node)) [\(caps.joined(separator: ","))]")
        } else {
            if let i = devices.firstIndex(of: name) { devices.remove(at: i) }
            noteKeyboard(node, present: false)
            log.info("input device removed: \(name) (\(node))")
            if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH) != 0 {
                out.append(contentsOf: assembler.cancelAll(time: monotonicSeconds()))
            }
        }
    }

    /// A touch going down, moving (mapped to the canvas; off it, dropped), lifting or
    /// cancelled, or the frame that closes a group.
    private func convertTouch(_ t: OpaquePointer, _ type: libinput_event_type, into out: inout [InputEvent]) {
        let time = Double(libinput_event_touch_get_time_usec(t)) / 1_000_000
        switch type {
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            let x = libinput_event_touch_get_x_transformed(t, UInt32(transform.panelWidth))
            let y = libinput_event_touch_get_y_transformed(t, UInt32(transform.panelHeight))
            guard let p = transform.canvasPoint(panelX: x, panelY: y) else { return }
            emit(InputEvent(.touch(type == LIBINPUT_EVENT_TOUCH_DOWN ? .down : .move, slot: slot, position: p), time: time), &out)
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            emit(InputEvent(.touch(type == LIBINPUT_EVENT_TOUCH_UP ? .up : .cancel, slot: slot, position: .zero), time: time), &out)
        default:
            emit(InputEvent(.touchFrame, time: time), &out)
        }
    }

    /// A key pressed or released, and the text it types under the keymap.
    private func convertKey(_ k: OpaquePointer, into out: inout [InputEvent]) {
        let time = Double(libinput_event_keyboard_get_time_usec(k)) / 1_000_000
        let pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED
        let code = Int(libinput_event_keyboard_get_key(k))
        emit(InputEvent(.key(Key(code: code), pressed: pressed), time: time), &out)
        if let text = keymap?.text(forKey: code, pressed: pressed) { emit(InputEvent(.text(text), time: time), &out) }
    }

    /// The pointer moved by a distance (`relative`, kept on the canvas) or to a place (mapped
    /// without the touch calibration): a pointer motion, or a touch move while the button is
    /// held where the pointer acts as a finger.
    private func convertPointerMotion(_ p: OpaquePointer, relative: Bool, into out: inout [InputEvent]) {
        let time = Double(libinput_event_pointer_get_time_usec(p)) / 1_000_000
        if relative {
            let cw = Double(transform.canvasWidth), ch = Double(transform.canvasHeight)
            pointer = Point(
                x: min(max(pointer.x + libinput_event_pointer_get_dx(p), 0), cw - 1),
                y: min(max(pointer.y + libinput_event_pointer_get_dy(p), 0), ch - 1))
        } else {
            let x = libinput_event_pointer_get_absolute_x_transformed(p, UInt32(transform.panelWidth))
            let y = libinput_event_pointer_get_absolute_y_transformed(p, UInt32(transform.panelHeight))
            var plain = transform
            plain.calibration = .identity
            guard let c = plain.canvasPoint(panelX: x, panelY: y) else { return }
            pointer = c
        }
        if pointerAsTouch {
            if pointerTouchDown {
                emit(InputEvent(.touch(.move, slot: 0, position: pointer), time: time), &out)
                emit(InputEvent(.touchFrame, time: time), &out)
            }
        } else {
            emit(InputEvent(.pointerMotion(position: pointer), time: time), &out)
        }
    }

    /// A pointer button pressed or released; the left button (BTN_LEFT) is a finger touching
    /// where the pointer acts as one.
    private func convertPointerButton(_ p: OpaquePointer, into out: inout [InputEvent]) {
        let time = Double(libinput_event_pointer_get_time_usec(p)) / 1_000_000
        let code = Int(libinput_event_pointer_get_button(p))
        let pressed = libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED
        if pointerAsTouch && code == 0x110 {
            pointerTouchDown = pressed
            emit(InputEvent(.touch(pressed ? .down : .up, slot: 0, position: pointer), time: time), &out)
            emit(InputEvent(.touchFrame, time: time), &out)
        } else {
            emit(InputEvent(.pointerButton(code: code, pressed: pressed, position: pointer), time: time), &out)
        }
    }

    /// A wheel turned (in `wheelStep` points a notch), fingers scrolling on a touchpad (with
    /// the scroll stop), or a continuous scroll.
    private func convertScroll(_ p: OpaquePointer, _ type: libinput_event_type, into out: inout [InputEvent]) {
        let time = Double(libinput_event_pointer_get_time_usec(p)) / 1_000_000
        func value(_ axis: libinput_pointer_axis) -> Double {
            guard libinput_event_pointer_has_axis(p, axis) != 0 else { return 0 }
            if type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL {
                return libinput_event_pointer_get_scroll_value_v120(p, axis) / 120 * wheelStep
            }
            return libinput_event_pointer_get_scroll_value(p, axis)
        }
        let d = Point(x: value(LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL), y: value(LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL))
        guard d.isFinite else { return }
        if type == LIBINPUT_EVENT_POINTER_SCROLL_FINGER {
            // Zero on both axes is libinput's scroll stop: the fingers lifted.
            emit(InputEvent(.fingerScroll(delta: d, position: pointer), time: time), &out)
        } else if d != .zero {
            emit(InputEvent(.wheel(delta: d, position: pointer), time: time), &out)
        }
    }
}
