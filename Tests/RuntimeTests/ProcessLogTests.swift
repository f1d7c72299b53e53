#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
@testable import Runtime

/// The process log's pieces: syslog priorities, the journal's stream test, one line per message.
@Suite struct ProcessLogTests {
    @Test func levelsMapToSyslogPriorities() {
        let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        #expect(levels.map(syslogPriority) == [7, 7, 6, 5, 4, 3, 2])
    }

    @Test func theJournalStreamIsTheFileItNames() throws {
        let path = "/tmp/glide-journal-\(getpid())"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var info = stat()
        try #require(fstat(fd, &info) == 0)
        #expect(isJournalStream("\(info.st_dev):\(info.st_ino)", fd: fd))
        #expect(!isJournalStream("\(info.st_dev):\(info.st_ino + 1)", fd: fd))
        for bad in ["", ":", "12", "a:b", "1:2:3", "-1:5", "\(info.st_dev):"] { #expect(!isJournalStream(bad, fd: fd), "\(bad)") }
        #expect(!isJournalStream("\(info.st_dev):\(info.st_ino)", fd: -1))
    }

    @Test func aMessageIsOneLineWithItsMetadataAndError() {
        struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
        let lines = LoopSchedulerTests.Reports()
        var log = Logger.lines { level, text in lines.add("\(syslogPriority(level)) \(text)") }
        log[metadataKey: "panel"] = "HDMI-1"
        log.warning("slow frame", metadata: ["ms": "40"])
        log.error("present failed", error: Broken())
        log.debug("not shown: the level is info")
        #expect(lines.all == ["4 slow frame ms=40 panel=HDMI-1", "3 present failed panel=HDMI-1: it broke"])
    }
}
