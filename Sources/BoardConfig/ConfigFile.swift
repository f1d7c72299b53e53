import Geometry
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// Changes one key of a config file in place (`glide calibrate` writes `calibration`): the
/// other lines and their comments stay as they were, the old file is kept as `FILE.bak`, and
/// the new one replaces it whole (written beside it, flushed, renamed), so a power cut leaves
/// one or the other, never half of each.
package enum ConfigFile {
    /// `text` with `key = value`: on the line that set `key`, else added at the end. The result
    /// is parsed again, so a value the file could not hold is refused here, not at the next boot.
    package static func setting(_ key: String, to value: String, in text: String, source: String = "config") throws(BoardConfigError)
        -> String
    {
        let old = try BoardConfig(parsing: text, source: source)
        var lines = textLines(text).map(String.init)
        let line = "\(key) = \(value)"
        if let n = old.lines[key] {
            lines[n - 1] = line
        } else {
            if lines.last == "" { lines.removeLast() }
            lines.append(line)
            lines.append("")
        }
        let new = lines.joined(separator: lineBreak(of: text))
        _ = try BoardConfig(parsing: new, source: source)
        return new
    }

    /// Sets `key` in the file at `path` (created when missing). Returns the backup's path, nil
    /// when there was no old file.
    @discardableResult
    package static func set(_ key: String, to value: String, inFileAt path: String) throws(ConfigWriteError) -> String? {
        try checkWritable(path)
        var info = stat()
        let exists = stat(path, &info) == 0
        var text = ""
        if exists {
            do {
                let bytes = try FileIO.readAll(path: path, limit: BoardConfig.maximumBytes)
                guard let t = String(validating: bytes, as: UTF8.self) else {
                    throw ConfigWriteError.unreadable(path: path, reason: "not UTF-8 text")
                }
                text = t
            } catch let e as ConfigWriteError { throw e } catch { throw .unreadable(path: path, reason: "\(error)") }
        }
        let new: String
        do { new = try setting(key, to: value, in: text, source: path) } catch { throw .invalid(error) }
        let mode = exists ? info.st_mode & 0o777 : 0o644
        let backup = exists ? path + ".bak" : nil
        // What a write killed by a power cut left beside the config or its backup.
        FileIO.removeLeftovers(of: path)
        FileIO.removeLeftovers(of: path + ".bak")
        do {
            // The backup holds the same secrets: it takes the config's mode, whatever an older one had.
            if let backup { try FileIO.writeAll(Array(text.utf8), path: backup, mode: mode, keepsMode: false, durable: true) }
            try FileIO.writeAll(Array(new.utf8), path: path, mode: mode, durable: true)
        } catch {
            throw .notWritten(path: path, reason: "\(error)")
        }
        return backup
    }

    /// Throws unless the file at `path` (or, when missing, a new one in its folder) may be
    /// replaced: checked before anything is asked of the user. A file without write permission
    /// bits counts as read-only even for root, who could write it: someone made it so.
    package static func checkWritable(_ path: String) throws(ConfigWriteError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { throw .readOnly(path: path, reason: "not a regular file") }
            guard info.st_mode & 0o222 != 0 else { throw .readOnly(path: path, reason: "the file has no write permission") }
            guard access(path, W_OK) == 0 else { throw .readOnly(path: path, reason: String(cString: strerror(errno))) }
        } else if errno != ENOENT {
            throw .readOnly(path: path, reason: String(cString: strerror(errno)))
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard access(folder.isEmpty ? "/" : folder, W_OK) == 0 else {
            throw .readOnly(path: path, reason: "its folder \(folder.isEmpty ? "/" : folder): \(String(cString: strerror(errno)))")
        }
    }
}

/// Why a config file was not changed; the old file is then as it was.
package enum ConfigWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    case readOnly(path: String, reason: String)
    case unreadable(path: String, reason: String)
    case invalid(BoardConfigError)
    case notWritten(path: String, reason: String)

    package var description: String {
        switch self {
        case let .readOnly(path, reason): return "cannot change \(path): \(reason); nothing was written"
        case let .unreadable(path, reason): return "cannot read \(path): \(reason); nothing was written"
        case let .invalid(error): return "\(error); nothing was written"
        case let .notWritten(path, reason): return "could not write \(path): \(reason); the old file stays"
        }
    }
}
