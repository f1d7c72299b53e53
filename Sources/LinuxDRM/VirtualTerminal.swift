import CDRM
#if canImport(Glibc)
import Glibc
#endif

/// The virtual terminal glide runs on (systemd's TTYPath), set aside while glide owns the display:
/// graphics mode, so the kernel's text console does not draw over the app or blank it, and the
/// keyboard off, so keys read through libinput do not also reach the terminal (where Ctrl+C
/// would stop the kiosk). Both are put back by `restore()`. Not a VT (serial console, a pipe,
/// an ssh session): nothing to do.
package final class VirtualTerminal {
    package let fd: Int32
    private let savedMode: Int32
    private let savedKeyboardMode: Int32
    private var restored = false

    /// Sets the terminal on `fd` aside, or returns nil when `fd` is not a virtual terminal.
    package init?(fd: Int32) {
        guard isatty(fd) == 1 else { return nil }
        var mode: Int32 = 0, keyboard: Int32 = 0
        guard cdrm_tty_get(fd, CDRM_KDGETMODE, &mode) == 0, cdrm_tty_get(fd, CDRM_KDGKBMODE, &keyboard) == 0 else { return nil }
        self.fd = fd
        savedMode = mode
        savedKeyboardMode = keyboard
        _ = cdrm_tty_set(fd, CDRM_KDSKBMODE, Int(CDRM_K_OFF))
        _ = cdrm_tty_set(fd, CDRM_KDSETMODE, Int(CDRM_KD_GRAPHICS))
    }

    package func restore() {
        guard !restored else { return }
        restored = true
        _ = cdrm_tty_set(fd, CDRM_KDSETMODE, Int(savedMode))
        _ = cdrm_tty_set(fd, CDRM_KDSKBMODE, Int(savedKeyboardMode))
    }

    deinit { restore() }
}
