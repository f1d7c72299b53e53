import LinuxDRM
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The sysfs backlight class, in a folder laid out like /sys/class/backlight: brightness in
/// percent of the maximum, off and on through bl_power or brightness, missing devices named.
@Suite struct BacklightTests {
    /// A fresh folder with backlight `name` (max, brightness, and bl_power if `power`).
    static func root(_ name: String = "panel0", max: String = "255", brightness: String = "128", power: Bool = true) -> String {
        var template = Array("/tmp/glide-backlight-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        mkdir("\(dir)/\(name)", 0o755)
        write("\(dir)/\(name)/max_brightness", max + "\n")
        write("\(dir)/\(name)/brightness", brightness + "\n")
        if power { write("\(dir)/\(name)/bl_power", "0\n") }
        return dir
    }

    static func write(_ path: String, _ text: String) {
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
    }

    static func read(_ path: String) -> String {
        guard let f = fopen(path, "r") else { return "" }
        defer { fclose(f) }
        var buffer = [CChar](repeating: 0, count: 64)
        return fgets(&buffer, 64, f) != nil ? String(cString: buffer) : ""
    }

    @Test func brightnessIsAPercentageOfTheMaximum() throws {
        let root = Self.root()
        let b = try Backlight(root: root)
        #expect(b.name == "backlight panel0" && b.maxBrightness == 255 && b.level == 128)
        try b.setBrightness(percent: 70)
        #expect(Self.read("\(root)/panel0/brightness") == "179\n")
        try b.setBrightness(percent: 0)  // never fully off by brightness: at least one step
        #expect(Self.read("\(root)/panel0/brightness") == "3\n")
    }

    @Test func offAndOnThroughBlPowerOrBrightness() throws {
        let root = Self.root()
        let b = try Backlight(device: "panel0", root: root)
        try b.setPower(on: false)
        #expect(Self.read("\(root)/panel0/bl_power") == "4\n")
        #expect(Self.read("\(root)/panel0/brightness") == "128\n")
        try b.setPower(on: true)
        #expect(Self.read("\(root)/panel0/bl_power") == "0\n")

        let plain = Self.root("acpi_video0", max: "10", brightness: "7", power: false)
        let c = try Backlight(root: plain)
        try c.setPower(on: false)
        #expect(Self.read("\(plain)/acpi_video0/brightness") == "0\n")
        try c.setPower(on: true)
        #expect(Self.read("\(plain)/acpi_video0/brightness") == "7\n")
    }

    @Test func missingOrBrokenBacklightsAreNamed() throws {
        #expect(throws: BacklightError.self) { try Backlight(root: "/nonexistent/backlight") }
        let root = Self.root()
        #expect(throws: BacklightError.self) { try Backlight(device: "other", root: root) }
        #expect(throws: BacklightError.noDevice("'../x' is not a backlight name")) { try Backlight(device: "../x", root: root) }
        let broken = Self.root(max: "lots")
        do {
            _ = try Backlight(root: broken)
            Issue.record("accepted a max_brightness of 'lots'")
        } catch {
            #expect("\(error)".contains("max_brightness") && "\(error)".contains("not a number"))
        }
        let dark = Self.root(max: "0")
        #expect(throws: BacklightError.self) { try Backlight(root: dark) }
    }
}
