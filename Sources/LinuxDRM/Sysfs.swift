#if canImport(Glibc)
import Glibc
#endif

/// Reading sysfs, which the service user may do before udev has given it the devices.
enum Sysfs {
    /// The names in `directory`, sorted, without the dot entries; nil when it cannot be read.
    static func names(in directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let n = fixedCString(entry.pointee.d_name)
            if !n.hasPrefix(".") { names.append(n) }
        }
        return names.sorted()
    }

    /// The text of a small attribute file (at most `limit` bytes), or the reason it cannot be read.
    static func text(_ path: String, limit: Int = 4096) -> Result<String, Errno> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.current) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: limit)
        return valueOrErrno({ buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } })
            .map { String(decoding: buffer.prefix($0), as: UTF8.self) }
    }
}

/// The display a card would show, guessed from sysfs while the card cannot be opened yet (at
/// boot, before udev gives /dev/dri/card* to the video group): an app can be built for its size
/// meanwhile. Only a guess: the connector glide picks and the panel's orientation are known once
/// the card is open.
package enum DisplayGuess {
    /// WIDTHxHEIGHT of `mode`, else of the connector's first (preferred) mode; the connector is
    /// `connector` if named, else the first connected one; of the card at `card` (a /dev/dri
    /// path), else of the first card with a connected connector. nil when sysfs does not say.
    package static func modeSize(
        card: String?, connector: String?, mode: (width: Int, height: Int)?,
        root: String = "/sys/class/drm"
    ) -> (width: Int, height: Int)? {
        let cardName = card.map { String($0.split(separator: "/").last ?? "") }
        // Connectors are "cardN-NAME" beside the cards themselves ("cardN") and render nodes.
        let candidates = (Sysfs.names(in: root) ?? []).filter { entry in
            let parts = entry.split(separator: "-", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0].hasPrefix("card") else { return false }
            return (cardName ?? parts[0]) == parts[0] && (connector ?? parts[1]) == parts[1]
        }
        for name in candidates {
            guard case .success(let status) = Sysfs.text("\(root)/\(name)/status"),
                status.split(whereSeparator: \.isWhitespace).first == "connected"
            else { continue }
            if let mode { return mode }
            guard case .success(let modes) = Sysfs.text("\(root)/\(name)/modes"),
                let first = modes.split(separator: "\n").first
            else { continue }
            let parts = first.split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1].prefix { $0.isNumber }), w > 0, h > 0 else { continue }
            return (w, h)
        }
        return nil
    }
}
