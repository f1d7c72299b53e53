import Logging
import SharedLibraries
#if canImport(Glibc)
import Glibc
#endif

/// systemd's journal through libsystemd's `sd_journal_sendv`, opened when the process runs under
/// systemd with its standard error in the journal: each message goes with its priority and
/// fields (`journalctl -u glide@glide -p warning -o json` shows `GLIDE_EVENT`, `GLIDE_VIEW`,
/// `GLIDE_CLIENT`), not as a line to parse. Without libsystemd the lines go to standard error
/// with their priority prefix, as before.
package struct Journal: @unchecked Sendable {
    private typealias SendV = @convention(c) (UnsafePointer<iovec>?, Int32) -> Int32
    private let sendv: SendV

    /// The journal, when standard error is it, its socket is there and libsystemd loads; nil
    /// otherwise. (libsystemd drops a message silently when the socket is missing.)
    package static let shared: Journal? = {
        guard standardErrorIsJournal, access("/run/systemd/journal/socket", W_OK) == 0,
            let library = try? SharedLibrary("libsystemd.so.0", package: "libsystemd0"),
            let sendv = try? library.function("sd_journal_sendv", SendV.self)
        else { return nil }
        return Journal(sendv: sendv)
    }()

    /// Sends one entry of `fields` ("KEY=value"); false when the journal refused it.
    package func send(_ fields: [String]) -> Bool {
        var storage = fields.map { Array($0.utf8) }
        return storage.withUnsafeMutableBufferPointer { buffers in
            var vectors = buffers.indices.map { i in
                buffers[i].withUnsafeMutableBytes { iovec(iov_base: $0.baseAddress, iov_len: $0.count) }
            }
            return vectors.withUnsafeMutableBufferPointer { sendv($0.baseAddress, Int32($0.count)) } >= 0
        }
    }

    /// An entry's fields: the line standard error would have had as MESSAGE, its priority, the
    /// process as SYSLOG_IDENTIFIER, where it was logged, and each metadata key as a field of its
    /// own, upper case with `GLIDE_` before it (`view` is `GLIDE_VIEW`).
    package static func fields(
        level: Logger.Level, message: String, metadata: Logger.Metadata, file: String, function: String, line: UInt
    ) -> [String] {
        var fields = [
            "MESSAGE=\(processName): \(message)", "PRIORITY=\(syslogPriority(level))", "SYSLOG_IDENTIFIER=\(processName)",
            "CODE_FILE=\(file)", "CODE_LINE=\(line)", "CODE_FUNC=\(function)",
        ]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let name = key.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }
            fields.append("GLIDE_\(String(name))=\(value)")
        }
        return fields
    }
}

/// Writes each message to the journal with its fields; one the journal refuses goes to standard
/// error as a line instead.
struct JournalLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let journal: Journal

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let (text, all) = event.line(with: metadata)
        let fields = Journal.fields(
            level: event.level, message: text, metadata: all, file: event.file, function: event.function, line: event.line)
        if !journal.send(fields) { standardError("<\(syslogPriority(event.level))>\(processName): \(text)") }
    }
}
