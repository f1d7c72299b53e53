#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import Testing
import TestSupport

/// Every whole-file write (screenshots, states, the state file, configs) goes through
/// `FileIO.writeAll`: a link someone planted in the folder must not redirect it, the file's
/// permissions stay as they were, and nothing of the write is left beside it.
@Suite struct AtomicWriteTests {
    /// A fresh folder, removed with what is in it afterwards.
    func withFolder(_ body: (String) throws -> Void) throws {
        let folder = try makeTemporaryFolder(prefix: "glide-atomic")
        defer {
            for name in (try? folderEntries(folder)) ?? [] { unlink(folder + "/" + name) }
            rmdir(folder)
        }
        try body(folder)
    }

    func contents(_ path: String) -> String { String(decoding: (try? FileIO.readAll(path: path)) ?? [], as: UTF8.self) }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : 0
    }

    /// A private file (0600) that a planted link points at.
    func makeVictim(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        _ = write(fd, "secret", 6)
        close(fd)
    }

    /// Before: the write opened `NAME.tmp-PID` through the link, so the victim held the PNG and
    /// became 0644.
    @Test func aLinkPlantedAtTheTemporaryNameIsNotFollowed() throws {
        try withFolder { folder in
            try makeVictim(folder + "/victim")
            #expect(symlink(folder + "/victim", folder + "/shot.png.tmp-\(getpid())") == 0)
            try FileIO.writeAll(Array("picture".utf8), path: folder + "/shot.png")
            #expect(contents(folder + "/victim") == "secret")
            #expect(mode(folder + "/victim") & 0o777 == 0o600)
            #expect(contents(folder + "/shot.png") == "picture")
        }
    }

    /// A link at the target itself is replaced by the new file; what it pointed to is untouched.
    @Test func aLinkAtTheTargetIsReplacedNotFollowed() throws {
        try withFolder { folder in
            try makeVictim(folder + "/victim")
            #expect(symlink(folder + "/victim", folder + "/state.json") == 0)
            try FileIO.writeAll(Array("{}\n".utf8), path: folder + "/state.json")
            #expect(contents(folder + "/victim") == "secret")
            #expect(mode(folder + "/state.json") & S_IFMT == S_IFREG)
            #expect(contents(folder + "/state.json") == "{}\n")
        }
    }

    /// Before: a 0600 file became 0644 when rewritten.
    @Test func anExistingFileKeepsItsPermissions() throws {
        try withFolder { folder in
            try makeVictim(folder + "/board.conf")
            try FileIO.writeAll(Array("app = catalog\n".utf8), path: folder + "/board.conf")
            #expect(mode(folder + "/board.conf") & 0o777 == 0o600)
            try FileIO.writeAll(Array("new".utf8), path: folder + "/new.png")
            #expect(mode(folder + "/new.png") & 0o777 == 0o644)
            try FileIO.writeAll(Array("new".utf8), path: folder + "/new.conf", mode: 0o600)
            #expect(mode(folder + "/new.conf") & 0o777 == 0o600)
            #expect(try folderEntries(folder) == ["board.conf", "new.conf", "new.png"])
        }
    }

    /// A recording (`--record`) is created the same way: a planted link is replaced, not
    /// followed and truncated.
    @Test func aRecordingDoesNotFollowAPlantedLink() throws {
        try withFolder { folder in
            try makeVictim(folder + "/victim")
            #expect(symlink(folder + "/victim", folder + "/input.jsonl") == 0)
            let file = try AppendingFile(path: folder + "/input.jsonl")
            file.append("{\"t\":0,\"key\":\"Enter\"}\n")
            #expect(contents(folder + "/victim") == "secret")
            #expect(contents(folder + "/input.jsonl") == "{\"t\":0,\"key\":\"Enter\"}\n")
        }
    }

    /// A process id that no process has now (a run killed long ago).
    func deadPID() -> pid_t {
        var pid: pid_t = 4_000_000
        while kill(pid, 0) == 0 || errno == EPERM { pid -= 1 }
        return pid
    }

    /// Before: a kill between the write and the rename left `NAME.tmp-PID` beside the file for
    /// good. Writers now remove the leftovers of both namings when they start, except a running
    /// process's and files of other names.
    @Test func leftoversOfKilledWritesAreRemoved() throws {
        try withFolder { folder in
            let dead = deadPID()
            let alive = getppid()
            let leftovers = ["final.png.tmp-\(dead)", ".final.png.tmp-\(dead)-3f9a0c12d4e5b6a7", ".s1.json.tmp-\(getpid())-ab"]
            let kept = [".s2.json.tmp-\(alive)-ab", "notes.tmp-draft", "final.png", "tmp-12", ".tmp-12"]
            for name in leftovers + kept { try FileIO.writeAll([1], path: folder + "/" + name) }
            #expect(symlink(folder + "/final.png", folder + "/s3.json.tmp-\(dead)") == 0)
            FileIO.removeLeftovers(inFolder: folder)
            #expect(try folderEntries(folder) == kept.sorted())
            #expect(contents(folder + "/final.png") == "\u{1}")
        }
    }

    /// A writer that does not own the folder removes only its own file's leftovers.
    @Test func leftoversOfOneFileAreRemoved() throws {
        try withFolder { folder in
            let dead = deadPID()
            for name in ["state.json.tmp-\(dead)", ".state.json.tmp-\(dead)-ff", "other.json.tmp-\(dead)"] {
                try FileIO.writeAll([1], path: folder + "/" + name)
            }
            FileIO.removeLeftovers(of: folder + "/state.json")
            #expect(try folderEntries(folder) == ["other.json.tmp-\(dead)"])
        }
    }
}
