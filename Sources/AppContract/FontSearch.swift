#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the running process looks for Glide's shipped `Fonts/` folder: what only the process
/// knows (its environment, its executable, the checkout it was built from), handed to the text
/// engine, which looks at nothing but the paths it is given.
package struct FontSearchPlaces: Hashable, Sendable {
    /// `$GLIDE_FONTS`: a folder that must hold the fonts itself; nil when unset.
    package var glideFonts: String?
    /// Paths to walk up from, in turn, for the first `Fonts/` folder that holds the fonts.
    package var startingPoints: [String]

    /// Creates the places from a `$GLIDE_FONTS` value and paths to walk up from.
    ///
    /// - Parameters:
    ///   - glideFonts: The folder `$GLIDE_FONTS` names, or nil.
    ///   - startingPoints: Files or folders to walk up from, in the order they are tried.
    package init(glideFonts: String?, startingPoints: [String]) {
        self.glideFonts = glideFonts
        self.startingPoints = startingPoints
    }

    /// The places for the running executable: `$GLIDE_FONTS` if set; then walking up from the
    /// executable's path (so both `.build/release/glide` in a checkout and
    /// `/opt/glide/bin/glide` next to `/opt/glide/Fonts` work); last, walking up from the Glide
    /// checkout this was built from (found from this source file's path), so that an app in
    /// another package that depends on Glide by path or by git URL finds Glide's fonts in its
    /// checkout while it runs on the build machine.
    ///
    /// - Parameters:
    ///   - sourcePath: The last place to walk up from; by default this file in Glide's checkout.
    ///   - glideFonts: `$GLIDE_FONTS` unless a caller (a test) gives another.
    /// - Returns: The places, in the order they are tried.
    package static func forExecutable(
        sourcePath: String = #filePath,
        glideFonts: String? = getenv("GLIDE_FONTS").map { String(cString: $0) }
    )
        -> FontSearchPlaces
    {
        FontSearchPlaces(glideFonts: glideFonts, startingPoints: [executablePath(), sourcePath].compactMap { $0 })
    }
}

/// The running executable's path, from `readlink("/proc/self/exe")`; nil where it cannot be read.
package func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let n = readlink("/proc/self/exe", &buffer, 4096)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
