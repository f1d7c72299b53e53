#if canImport(Glibc)
import Glibc
#endif
@testable import BoardConfig
import Testing

@Suite struct BoardConfigParsing {
    @Test func fullExampleParses() throws {
        let text = """
            # a portrait kiosk
            card = /dev/dri/card1
            connector = "HDMI-A-1"   # quoted
            mode = 1280x800@60
            rotation = 90
            calibration = 1 0 0.01  0 1 -0.02
            scale = 2
            app = catalog
            manifest = "/srv/kiosk/content #1/manifest.json"
            input = /dev/input/event3
            input = /dev/input/event4
            pointer-as-touch = yes
            remote_address = 0.0.0.0:8377
            remote_token = s3cret-token
            remote_tls_certificate = /etc/glide/remote.crt
            remote_tls_key = /etc/glide/remote.key
            remote_client_ca = "/etc/glide/fleet ca.crt"
            modesetting = legacy
            buffers = 3
            idle_blank_seconds = 300
            blank = backlight
            brightness = 70
            backlight = intel_backlight
            touch_rotation = 270
            display_wait_seconds = 2.5
            keyboard_layout = de
            language = de-CH
            keymap = ch
            onscreen_keyboard = never
            keyboard_repeat_delay_ms = 300
            keyboard_repeat_rate = 40
            screen_reader = on
            speech_device = plughw:1
            speech_rate = 220
            speech_voice = en-gb
            keypad = next:KP6 previous:KP4
            text_size = 150%
            high_contrast = on
            color_scheme = 20:00-07:00
            idle_reset_seconds = 90
            fonts = Brand Sans.ttf , DejaVuSans.ttf,/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
            """
        let c = try BoardConfig(parsing: text)
        #expect(c.colorScheme == "20:00-07:00")
        #expect(c.card == "/dev/dri/card1")
        #expect(c.connector == "HDMI-A-1")
        #expect(c.mode == BoardConfig.Mode(width: 1280, height: 800, refreshHz: 60))
        #expect(c.rotation == 90)
        #expect(c.keyboardLayout == "de" && c.keymap == "ch" && c.onscreenKeyboard == "never")
        #expect(c.language == "de-CH")
        #expect(c.keyboardRepeatDelayMilliseconds == 300 && c.keyboardRepeatRate == 40)
        #expect(c.screenReader && c.speechDevice == "plughw:1" && c.speechRate == 220 && c.speechVoice == "en-gb")
        #expect(c.keypad == "next:KP6 previous:KP4")
        #expect(c.textSize == 150 && c.highContrast)
        #expect(c.calibration == [1, 0, 0.01, 0, 1, -0.02])
        #expect(c.scale == 2)
        #expect(c.app == "catalog")
        #expect(c.manifest == "/srv/kiosk/content #1/manifest.json")
        #expect(c.inputs == ["/dev/input/event3", "/dev/input/event4"])
        #expect(c.pointerAsTouch)
        #expect(c.remoteAddress == "0.0.0.0:8377")
        #expect(c.remoteToken == "s3cret-token")
        #expect(c.remoteTLSCertificate == "/etc/glide/remote.crt" && c.remoteTLSKey == "/etc/glide/remote.key")
        #expect(c.remoteClientCA == "/etc/glide/fleet ca.crt")
        #expect(c.modesetting == "legacy" && c.buffers == 3)
        #expect(c.idleBlankSeconds == 300 && c.blank == "backlight" && c.brightness == 70)
        #expect(c.backlight == "intel_backlight" && c.touchRotation == 270)
        #expect(c.displayWaitSeconds == 2.5)
        #expect(c.idleResetSeconds == 90)
        #expect(c.fonts == ["Brand Sans.ttf", "DejaVuSans.ttf", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"])
    }

    @Test func emptyFileGivesDefaults() throws {
        let c = try BoardConfig(parsing: "\n# nothing\n   \n")
        #expect(c == BoardConfig())
        #expect(c.seat == "seat0" && c.rotation == 0 && c.scale == 1)
        #expect(c.modesetting == "auto" && c.buffers == 2)
        #expect(c.idleBlankSeconds == 0 && c.blank == "dpms" && c.brightness == nil && c.touchRotation == nil)
        #expect(c.displayWaitSeconds == 15)
    }

    /// Each bad line must name its key (or say what is wrong) and its line number.
    @Test(arguments: [
        ("mode = 1280*800", "mode", 2),
        ("rotation = 45", "rotation", 2),
        ("calibration = 1 0 0 0 1", "calibration", 2),
        ("calibration = 1 0 0 0 1 nan", "calibration", 2),
        ("scale = 0", "scale", 2),
        ("scale = inf", "scale", 2),
        ("card = card0", "card", 2),
        ("connector = \"HDMI", "connector", 2),
        ("remote_address = 8377", "remote_address", 2),
        ("calibration = 0 0 0 0 0 0", "calibration", 2),
        ("calibration = 1e308 0 0 0 1e308 0", "calibration", 2),
        ("calibration = 1 2 0 2 4 0", "calibration", 2),
        ("calibration = 1 0 nan 0 1 0", "calibration", 2),
        ("remote_token = short", "remote_token", 2),
        ("pointer_as_touch = maybe", "pointer_as_touch", 2),
        ("app = ", "app", 2),
        ("app = catalogue", "app", 2),
        ("modesetting = kms", "modesetting", 2),
        ("modesetting = Atomic", "modesetting", 2),
        ("buffers = 4", "buffers", 2),
        ("buffers = 1", "buffers", 2),
        ("buffers = two", "buffers", 2),
        ("idle_blank_seconds = -1", "idle_blank_seconds", 2),
        ("display_wait_seconds = -0.5", "display_wait_seconds", 2),
        ("display_wait_seconds = inf", "display_wait_seconds", 2),
        ("display_wait_seconds = soon", "display_wait_seconds", 2),
        ("idle_blank_seconds = nan", "idle_blank_seconds", 2),
        ("idle_blank_seconds = 1e9", "idle_blank_seconds", 2),
        ("idle_reset_seconds = 2", "idle_reset_seconds", 2),
        ("idle_reset_seconds = nan", "idle_reset_seconds", 2),
        ("blank = off", "blank", 2),
        ("brightness = 0", "brightness", 2),
        ("brightness = 101", "brightness", 2),
        ("brightness = 50%", "brightness", 2),
        ("backlight = ../../etc", "backlight", 2),
        ("touch_rotation = 45", "touch_rotation", 2),
        ("keyboard_layout = klingon", "keyboard_layout", 2),
        ("language = arabic", "language", 2),
        ("language = ar_AE", "language", 2),
        ("language = ../ar", "language", 2),
        ("keymap = ../../etc/passwd", "keymap", 2),
        ("onscreen_keyboard = sometimes", "onscreen_keyboard", 2),
        ("keyboard_repeat_delay_ms = 5", "keyboard_repeat_delay_ms", 2),
        ("keyboard_repeat_rate = -1", "keyboard_repeat_rate", 2),
        ("screen_reader = maybe", "screen_reader", 2),
        ("speech_rate = 1000", "speech_rate", 2),
        ("speech_voice = ../x", "speech_voice", 2),
        ("text_size = 500", "text_size", 2),
        ("high_contrast = very", "high_contrast", 2),
        ("color_scheme = night", "color_scheme", 2),
        ("color_scheme = 20:00-20:00", "color_scheme", 2),
        ("fonts = ../secret.ttf", "fonts", 2),
        ("fonts = DejaVuSans.ttf,,x.ttf", "fonts", 2),
        ("fonts = a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "fonts", 2),
    ])
    func badValuesNameKeyAndLine(line: String, key: String, lineNumber: Int) {
        do {
            _ = try BoardConfig(parsing: "# header\n\(line)\n", source: "board.conf", apps: ["catalog", "bringup"])
            Issue.record("accepted bad line '\(line)'")
        } catch {
            guard case .badValue(let source, let l, let k, _, _) = error else {
                Issue.record("wrong error \(error)"); return
            }
            #expect(source == "board.conf" && l == lineNumber && k == key)
            #expect(error.description.contains("board.conf:\(lineNumber)") && error.description.contains("'\(key)'"))
        }
    }

    /// Where each key was set, for errors found later (a remote address that needs a token).
    @Test func placesOfKeys() throws {
        let c = try BoardConfig(parsing: "# x\nmode = 800x480\n\nremote_address = 0.0.0.0:8377\n", source: "/etc/glide/board.conf")
        #expect(c.place(of: "remote_address") == "/etc/glide/board.conf:4")
        #expect(c.place(of: "mode") == "/etc/glide/board.conf:2")
        #expect(c.place(of: "rotation") == nil)
        #expect(try BoardConfig(parsing: "calibration = 0 1 0 1 0 0").calibration == [0, 1, 0, 1, 0, 0])
    }

    @Test func unknownKeyIsNamed() {
        #expect(throws: BoardConfigError.unknownKey(source: "config", line: 3, key: "rotate", known: BoardConfig.keys)) {
            try BoardConfig(parsing: "mode = 800x480\n\nrotate = 90")
        }
    }

    @Test func duplicateAndSyntaxErrors() {
        #expect(throws: BoardConfigError.duplicateKey(source: "config", line: 2, key: "mode", firstLine: 1)) {
            try BoardConfig(parsing: "mode = 800x480\nmode = 1024x600")
        }
        #expect(throws: BoardConfigError.syntax(source: "config", line: 1, text: "rotation 90", expected: "key = value")) {
            try BoardConfig(parsing: "rotation 90")
        }
        #expect(throws: BoardConfigError.syntax(source: "config", line: 1, text: "= 90", expected: "a key before '='")) {
            try BoardConfig(parsing: "= 90")
        }
    }

    @Test func missingFileIsAClearError() {
        do {
            _ = try BoardConfig.load(path: "/nonexistent/board.conf")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description.contains("/nonexistent/board.conf"))
        }
    }

    @Test func binaryGarbageIsRejected() throws {
        let text = String(decoding: [0x00, 0xFF, 0x3D, 0x0A, 0x61], as: UTF8.self)
        #expect(throws: BoardConfigError.self) { try BoardConfig(parsing: text) }
    }

    @Test func modeParsing() {
        #expect(BoardConfig.parseMode("800x480") == BoardConfig.Mode(width: 800, height: 480, refreshHz: nil))
        #expect(BoardConfig.parseMode("1920X1080@59.94")?.refreshHz == 59.94)
        for bad in ["", "x", "800x", "0x480", "-800x480", "800x480@", "800x480@0", "800x480@60@60", "99999x1"] {
            #expect(BoardConfig.parseMode(bad) == nil, "\(bad)")
        }
    }
}

/// An unknown key is answered with the keys nearest to it, not with all of them: the fuzzer found
/// the whole list (49 keys) plus a key of control characters over a thousand characters.
@Suite struct UnknownKeyTests {
    func message(_ text: String) -> String {
        do {
            _ = try BoardConfig(parsing: text, source: "board.conf")
            return "accepted"
        } catch { return "\(error)" }
    }

    @Test func nearestKeysAreSuggested() {
        #expect(BoardConfig.editDistance(Array("kitten".utf8), Array("sitting".utf8)) == 3)
        #expect(BoardConfig.editDistance([], Array("abc".utf8)) == 3 && BoardConfig.editDistance(Array("abc".utf8), []) == 3)
        #expect(
            message("rotaton = 90")
                == "board.conf:1: unknown key 'rotaton' (did you mean 'rotation'?); config.example lists the \(BoardConfig.keys.count) keys"
        )
        #expect(message("remote_tokn = x").contains("(did you mean 'remote_token' or 'remote_tokens'?)"))
        #expect(
            message("wallpaper = x") == "board.conf:1: unknown key 'wallpaper'; config.example lists the \(BoardConfig.keys.count) keys")
        // The fuzzer's key: sixty control characters, each shown escaped.
        let wild = message("remot" + String(repeating: "\u{1F}", count: 200) + " = 1")
        #expect(wild.count < 600, "\(wild.count) characters")
    }
}

/// Found by the fuzzer (Tests/Fuzz): a megabyte on one line was echoed whole in the message.
@Suite struct LongLineTests {
    /// A bad value, an unknown key, a line without '=' (the argument says which, so the test
    /// log does not print a megabyte).
    @Test(arguments: ["value", "key", "syntax"])
    func aLongBadLineIsCutInTheMessage(kind: String) {
        let long = String(repeating: "k", count: 1 << 20)
        let line = kind == "value" ? "mode = " + long : kind == "key" ? long + " = 1" : long
        do {
            _ = try BoardConfig(parsing: line, source: "board.conf")
            Issue.record("accepted a megabyte line")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("board.conf:1: "))
            #expect(message.count < 800, "\(message.count) characters")
            #expect(message.contains("(1048") && message.contains("bytes)"))
        }
    }
}

/// `glide calibrate` changes one key of the config in place, keeps the old file, and changes
/// nothing when it cannot.
@Suite struct ConfigFileTests {
    static func folder() -> String {
        var template = Array("/tmp/glide-config-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    static func write(_ text: String, _ path: String, mode: mode_t = 0o644) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        fchmod(fd, mode)
        close(fd)
    }
    static func read(_ path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var out = [UInt8](), buf = [UInt8](repeating: 0, count: 4096)
        while true { let n = fread(&buf, 1, buf.count, f); if n <= 0 { break }; out += buf[..<n] }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func aKeyIsReplacedOnItsLineOrAddedAtTheEnd() throws {
        let text = "# the lobby panel\nmode = 800x480\ncalibration = 1 0 0 0 1 0  # factory\nrotation = 90\n"
        #expect(
            try ConfigFile.setting("calibration", to: "0.9 0 0.01 0 1.1 -0.02", in: text)
                == "# the lobby panel\nmode = 800x480\ncalibration = 0.9 0 0.01 0 1.1 -0.02\nrotation = 90\n")
        #expect(
            try ConfigFile.setting("calibration", to: "1 0 0 0 1 0", in: "mode = 800x480") == "mode = 800x480\ncalibration = 1 0 0 0 1 0\n")
        #expect(try ConfigFile.setting("calibration", to: "1 0 0 0 1 0", in: "") == "calibration = 1 0 0 0 1 0\n")
        // A value the file could not hold, or an old file that does not parse: refused.
        #expect(throws: BoardConfigError.self) { try ConfigFile.setting("calibration", to: "0 0 0 0 0 0", in: text) }
        #expect(throws: BoardConfigError.self) { try ConfigFile.setting("calibration", to: "1 0 0 0 1 0", in: "mode = big\n") }
    }

    @Test func theOldFileIsKeptAndItsModeToo() throws {
        let dir = Self.folder(), path = dir + "/board.conf"
        let old = "# lobby\nmode = 800x480\nremote_token = secret-token\n"
        Self.write(old, path, mode: 0o600)
        let backup = try ConfigFile.set("calibration", to: "1 0 0.1 0 1 0", inFileAt: path)
        #expect(backup == path + ".bak")
        #expect(Self.read(path + ".bak") == old)
        #expect(Self.read(path) == old + "calibration = 1 0 0.1 0 1 0\n")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try BoardConfig.load(path: path).calibration == [1, 0, 0.1, 0, 1, 0])
        // A missing file is made, with nothing to keep.
        #expect(try ConfigFile.set("calibration", to: "1 0 0 0 1 0", inFileAt: dir + "/new.conf") == nil)
        #expect(Self.read(dir + "/new.conf") == "calibration = 1 0 0 0 1 0\n")
    }

    /// `glide calibrate` runs as root in a folder others may write: links planted at the names
    /// the write used to take (`board.conf.tmp-PID`, `board.conf.bak.tmp-PID`) are removed, not
    /// followed (before: the victim was overwritten and made 0644), and so is what a killed
    /// write left.
    @Test func plantedLinksAndLeftoversAreRemovedNotFollowed() throws {
        let dir = Self.folder(), path = dir + "/board.conf"
        let old = "mode = 800x480\nremote_token = secret-token\n"
        Self.write(old, path, mode: 0o600)
        Self.write("private\n", dir + "/victim", mode: 0o600)
        #expect(symlink(dir + "/victim", path + ".tmp-\(getpid())") == 0)
        #expect(symlink(dir + "/victim", path + ".bak.tmp-\(getpid())") == 0)
        Self.write("half", dir + "/.board.conf.tmp-\(getpid())-0123abcd", mode: 0o600)
        try ConfigFile.set("calibration", to: "1 0 0 0 1 0", inFileAt: path)
        #expect(Self.read(dir + "/victim") == "private\n")
        var info = stat()
        stat(dir + "/victim", &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(Self.read(path + ".bak") == old)
        for leftover in [path + ".tmp-\(getpid())", path + ".bak.tmp-\(getpid())", dir + "/.board.conf.tmp-\(getpid())-0123abcd"] {
            #expect(lstat(leftover, &info) != 0, "\(leftover) is left")
        }
    }

    @Test func aReadOnlyFileOrFolderLosesNothing() throws {
        let dir = Self.folder(), path = dir + "/board.conf"
        Self.write("mode = 800x480\n", path, mode: 0o444)
        #expect { try ConfigFile.set("calibration", to: "1 0 0 0 1 0", inFileAt: path) } throws: { error in
            "\(error)" == "cannot change \(path): the file has no write permission; nothing was written"
        }
        #expect(Self.read(path) == "mode = 800x480\n" && Self.read(path + ".bak") == nil)
        #expect(throws: ConfigWriteError.self) { try ConfigFile.checkWritable(dir + "/no/such/folder.conf") }
        #expect(throws: ConfigWriteError.self) { try ConfigFile.checkWritable(dir) }  // a folder, not a file
        // A broken old file is named, and stays.
        Self.write("mode = big\n", path, mode: 0o644)
        #expect(throws: ConfigWriteError.self) { try ConfigFile.set("calibration", to: "1 0 0 0 1 0", inFileAt: path) }
        #expect(Self.read(path) == "mode = big\n")
    }
}
