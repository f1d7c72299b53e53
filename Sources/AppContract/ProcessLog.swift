import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The name the process was started as ("glide", or an app's own executable).
package let processName: String = {
    let path = CommandLine.arguments.first ?? "glide"
    return path.split(separator: "/").last.map(String.init) ?? path
}()

/// The process's log: "NAME: message" lines on standard error, written at once (a crash loses
/// nothing). Under systemd, when standard error is the journal, each message goes to it through
/// libsystemd with its priority and metadata as fields (`Journal`); without libsystemd each line
/// carries its level as a syslog priority (`journalctl -p warning` finds Glide's warnings).
package let processLog = Logger.standardError()

/// A message for the person running the process, on the process's log.
///
/// - Parameters:
///   - message: The text, on one line or several.
///   - level: How much it matters; under systemd it is the journal priority the message is logged
///     at (`journalctl -p warning` shows warnings and worse).
@Sendable public func report(_ message: String, level: Logger.Level = .notice) {
    processLog.log(level: level, "\(message)")
}

extension Logger {
    /// A logger writing "NAME: message" lines to standard error, prefixed with `<N>` priorities
    /// when standard error is systemd's journal.
    package static func standardError(label: String = "glide") -> Logger {
        if let journal = Journal.shared { return Logger(label: label) { _ in JournalLogHandler(journal: journal) } }
        return lines(label: label) { level, text in
            let line = "\(processName): \(text)"
            guard standardErrorIsJournal else { return AppContract.standardError(line) }
            let prefix = "<\(syslogPriority(level))>"
            // journald takes the priority line by line.
            AppContract.standardError(
                line.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { prefix + $0 }.joined(separator: "\n"))
        }
    }

    /// A logger that says nothing: the default of parts whose owner may give them a log.
    package static let discarding = Logger(label: "glide") { _ in SwiftLogNoOpLogHandler() }

    /// A logger handing each message, as one text with its metadata, to `write`: for tests, or an
    /// app that keeps its own log.
    package static func lines(
        label: String = "glide",
        _ write: @escaping @Sendable (Logger.Level, String) -> Void
    ) -> Logger {
        Logger(label: label) { _ in LineLogHandler(write: write) }
    }
}

/// The syslog priority of a level: what journald and syslog filter on.
package func syslogPriority(_ level: Logger.Level) -> Int {
    switch level {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
}

/// True when standard error is the stream systemd connected to the journal: JOURNAL_STREAM names
/// its device and inode, and a shell in between may have redirected fd 2 elsewhere.
package let standardErrorIsJournal: Bool = {
    guard let value = getenv("JOURNAL_STREAM") else { return false }
    return isJournalStream(String(cString: value), fd: 2)
}()

/// True when `journalStream` ("DEVICE:INODE", systemd's JOURNAL_STREAM) names the file `fd` is.
package func isJournalStream(_ journalStream: String, fd: Int32) -> Bool {
    let parts = journalStream.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return false }
    return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
}

/// One line per message: the message, then its metadata as sorted key=value pairs and its error.
package struct LineLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    let write: @Sendable (Logger.Level, String) -> Void

    package init(write: @escaping @Sendable (Logger.Level, String) -> Void) { self.write = write }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        write(event.level, event.line(with: metadata).text)
    }
}

extension LogEvent {
    /// The message as one line's text, then its metadata (the handler's, overridden by the
    /// event's) as sorted key=value pairs and its error; and that metadata.
    func line(with handlerMetadata: Logger.Metadata) -> (text: String, metadata: Logger.Metadata) {
        var text = message.description
        let all = handlerMetadata.merging(metadata ?? [:]) { $1 }
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { text += " \(key)=\(value)" }
        if let error { text += ": \(error)" }
        return (text, all)
    }
}

/// Writes one line to standard error, unbuffered (a crash loses nothing): the one place Glide's
/// loops and commands report.
package func standardError(_ line: String) { writeLine(line, to: 2) }

/// Writes one line to standard output at once, even into a pipe (a test waiting for the remote
/// address reads it while the process runs).
package func standardOutput(_ line: String) { writeLine(line, to: 1) }

private func writeLine(_ line: String, to fd: Int32) {
    var text = line + "\n"
    text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
}
