#if canImport(Glibc)
import Glibc
#endif

/// A C library opened with dlopen when a feature first needs it, and its functions taken by the
/// C function pointer types their headers give them. librsvg and espeak-ng bring dozens of
/// libraries each (cairo and GLib; PulseAudio's client, D-Bus, codecs), which a kiosk that never
/// draws an SVG or speaks need not load at every start; a system without one still runs, and
/// the feature that needs it says which package to install.
package struct SharedLibrary: @unchecked Sendable {
    /// The file name dlopen looks for (`libespeak-ng.so.1`).
    package let name: String
    /// The Debian package that has it, for the message when it is missing.
    package let package: String
    private let handle: UnsafeMutableRawPointer

    package init(_ name: String, package: String) throws(SharedLibraryError) {
        self.name = name
        self.package = package
        // RTLD_LOCAL: its symbols stay its own; `function` asks this library (and what it
        // brought) only.
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { throw SharedLibraryError(name, package) }
        self.handle = handle
    }

    /// The function `symbol`, as the C function pointer type `T` its header gives it.
    package func function<T>(_ symbol: String, _: T.Type) throws(SharedLibraryError) -> T {
        guard let address = dlsym(handle, symbol) else { throw SharedLibraryError(name, package) }
        return unsafeBitCast(address, to: T.self)
    }
}

/// A library, or one of its functions, that dlopen or dlsym could not find, with their reason.
package struct SharedLibraryError: Error, Hashable, Sendable, CustomStringConvertible {
    package let library: String
    package let package: String
    package let reason: String

    init(_ library: String, _ package: String) {
        self.library = library
        self.package = package
        reason = dlerror().map { String(cString: $0) } ?? "not found"
    }

    package var description: String { "\(library) could not be loaded (\(reason); Debian: apt-get install \(package))" }
}
