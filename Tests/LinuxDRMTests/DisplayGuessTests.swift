import LinuxDRM
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The display's size read from a folder laid out like /sys/class/drm, before the card may be
/// opened: the connector and mode glide would choose, nil where sysfs does not say.
@Suite struct DisplayGuessTests {
    static func drm() -> String {
        var template = Array("/tmp/glide-drm-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        func connector(_ name: String, _ status: String, _ modes: String) {
            mkdir("\(dir)/\(name)", 0o755)
            BacklightTests.write("\(dir)/\(name)/status", status + "\n")
            BacklightTests.write("\(dir)/\(name)/modes", modes)
        }
        mkdir("\(dir)/card0", 0o755)
        mkdir("\(dir)/renderD128", 0o755)
        BacklightTests.write("\(dir)/version", "drm 1.1.0 20060810\n")
        connector("card0-HDMI-A-1", "disconnected", "")
        connector("card0-eDP-1", "connected", "1920x1080\n1280x720\n")
        connector("card1-DSI-1", "connected", "800x1280\n")
        connector("card1-DPI-1", "connected", "garbage\n")
        connector("card2-Virtual-1", "connected", "")
        return dir
    }

    @Test func theFirstConnectedConnectorsPreferredMode() {
        let root = Self.drm()
        let guess = DisplayGuess.modeSize(card: nil, connector: nil, mode: nil, root: root)
        #expect(guess?.width == 1920 && guess?.height == 1080)
        let onCard1 = DisplayGuess.modeSize(card: "/dev/dri/card1", connector: nil, mode: nil, root: root)
        #expect(onCard1?.width == 800 && onCard1?.height == 1280)
        let configured = DisplayGuess.modeSize(card: nil, connector: "eDP-1", mode: (1280, 720), root: root)
        #expect(configured?.width == 1280 && configured?.height == 720)
    }

    @Test func nothingWhereSysfsDoesNotSay() {
        let root = Self.drm()
        #expect(DisplayGuess.modeSize(card: nil, connector: "HDMI-A-1", mode: nil, root: root) == nil)  // disconnected
        #expect(DisplayGuess.modeSize(card: nil, connector: "DPI-1", mode: nil, root: root) == nil)  // unreadable modes
        #expect(DisplayGuess.modeSize(card: "/dev/dri/card2", connector: nil, mode: nil, root: root) == nil)  // no modes
        #expect(DisplayGuess.modeSize(card: "/dev/dri/card7", connector: nil, mode: nil, root: root) == nil)
        #expect(DisplayGuess.modeSize(card: nil, connector: nil, mode: nil, root: root + "/missing") == nil)
    }
}
