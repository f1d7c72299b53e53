#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import Testing

/// `speech.wav` of the real `glide run --backend headless --screen-reader` under faults: a write
/// that fails (a full disk, here the kernel's file size limit) fails the run, and a run killed
/// midway leaves a valid WAV of what was said until then.
@Suite struct ScreenReaderSpeechFileTests {
    static let glide = glideBinary

    /// A script of `moves` presses of the keypad's "next" key, `gap` ms apart: one utterance each.
    static func keypadMoves(_ moves: Int, gap: Int, name: String) throws -> String {
        var lines = (0..<moves).map { #"{"t":\#(500 + $0 * gap),"key":"KP6"}"# }
        lines.append(#"{"t":\#(500 + moves * gap + 3000),"state":"end"}"#)
        let path = "/tmp/glide-speech-file-\(getpid())-\(name).jsonl"
        try FileIO.writeAll(Array((lines.joined(separator: "\n") + "\n").utf8), path: path)
        return path
    }

    /// The frames of a mono 16-bit PCM WAV whose header's sizes match the file, or nil: a file
    /// a player or libsndfile reads whole.
    static func validFrames(_ path: String) -> Int? {
        guard let bytes = try? FileIO.readAll(path: path), bytes.count >= 12 else { return nil }
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        // A kill between an utterance's samples and the header's update leaves those samples
        // past the sizes the header gives: a reader plays what the header says, as it should.
        guard tag(0) == "RIFF", tag(8) == "WAVE", word(4) <= bytes.count - 8 else { return nil }
        var at = 12
        var pcm16Mono = false
        while at + 8 <= bytes.count {
            let size = word(at + 4)
            if tag(at) == "fmt " && at + 24 <= bytes.count {
                pcm16Mono = bytes[at + 10] == 1 && bytes[at + 22] == 16
            }
            if tag(at) == "data" { return pcm16Mono && at + 8 + size <= bytes.count && word(4) == at + size ? size / 2 : nil }
            at += 8 + size + size % 2
        }
        return nil
    }

    /// The disk filling up while speech is recorded: the kernel refuses writes past 400 KiB
    /// (`ulimit -f`, with SIGXFSZ ignored so a write fails as on a full disk). The 40
    /// utterances need 800 KB: the run says which file it could not write and fails, and the
    /// part written is a valid WAV.
    @Test func aSpeechFileThatCannotBeWrittenFailsTheRun() throws {
        try #require(access(Self.glide, X_OK) == 0, "build the glide binary first (swift build --product glide)")
        let script = try Self.keypadMoves(40, gap: 400, name: "full")
        let out = "/tmp/glide-speech-file-\(getpid())-full"
        let r = shell(
            "trap '' XFSZ; ulimit -f 400; GLIDE_CONTENT=\(repositoryRoot)/Board/content exec \(Self.glide) run --backend headless"
                + " --screen-reader --script \(script) --out \(out)",
            name: "full")
        #expect(r.status != 0, "the run exited 0 although speech.wav was cut short: \(r.stderr)")
        #expect(r.stderr.contains("speech.wav"), "\(r.stderr)")
        let frames = Self.validFrames(out + "/speech.wav")
        #expect(frames != nil && frames! > 0, "the part written is not a valid WAV")
        _ = system("rm -rf \(out) \(script)")
    }

    /// `kill -9` in the middle of a run: the WAV holds the utterances finished so far, with a
    /// header that says so.
    @Test func aKilledRunLeavesAValidShorterSpeechFile() throws {
        try #require(access(Self.glide, X_OK) == 0, "build the glide binary first (swift build --product glide)")
        let script = try Self.keypadMoves(40, gap: 10_000, name: "kill")
        let out = "/tmp/glide-speech-file-\(getpid())-kill"
        let wav = out + "/speech.wav"
        let arguments = [Self.glide, "run", "--backend", "headless", "--screen-reader", "--script", script, "--out", out]
        let environment = ["GLIDE_CONTENT=\(repositoryRoot)/Board/content", "PATH=/usr/bin:/bin"]
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        try #require(posix_spawn(&pid, Self.glide, &actions, nil, argv, envp) == 0)
        posix_spawn_file_actions_destroy(&actions)
        // Wait for a few seconds of speech on disk (the whole run would write 40 utterances
        // 10 s apart), then kill it while it runs. Up to two minutes: under qemu-user, beside
        // the other suites, the catalog takes long to start (30 s was once too short).
        var status: Int32 = 0
        var exited = false
        for _ in 0..<2400 {
            if let frames = Self.validFrames(wav), frames > 22_050 * 12 { break }
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
            usleep(50_000)
        }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        #expect(!exited && status & 0x7f == SIGKILL, "the run was not killed midway (exited: \(exited), status \(status))")
        let frames = Self.validFrames(wav)
        #expect(frames != nil, "speech.wav after kill -9 is not a valid WAV")
        #expect((frames ?? 0) > 22_050 * 12, "speech.wav after kill -9 holds \(frames ?? 0) frames")
        _ = system("rm -rf \(out) \(script)")
    }

    /// Utterances cut by the next one come out the same in every run (synthesis whose result
    /// will be cut is not stopped early: espeak-ng's next utterance would depend on when the
    /// loop handed it over).
    @Test func theRecordingIsTheSameEveryRun() throws {
        try #require(access(Self.glide, X_OK) == 0, "build the glide binary first (swift build --product glide)")
        let script = try Self.keypadMoves(12, gap: 150, name: "same")
        var recordings: [[UInt8]] = []
        for i in 0..<2 {
            let out = "/tmp/glide-speech-file-\(getpid())-same-\(i)"
            let r = shell(
                "GLIDE_CONTENT=\(repositoryRoot)/Board/content \(Self.glide) run --backend headless --screen-reader"
                    + " --script \(script) --out \(out)",
                name: "same")
            #expect(r.status == 0, "\(r.stderr)")
            recordings.append(try FileIO.readAll(path: out + "/speech.wav"))
            _ = system("rm -rf \(out)")
        }
        #expect(recordings[0].count > 44 && recordings[0] == recordings[1])
        _ = unlink(script)
    }
}
