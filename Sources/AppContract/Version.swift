import CBuildInfo

/// Glide's release: one version for the whole package, Semantic Versioning below 1.0 (a minor
/// step may break the API, a patch may not; CHANGELOG.md says what each one changed), and the
/// commit the binary was built from.
package enum GlideVersion {
    /// The package's version; `Tests/API/check.sh` holds the public API to it.
    package static let version = "0.6.0"

    /// The commit (12 hex digits) the board scripts and CI built from; "unknown" otherwise.
    package static var commit: String { String(cString: glide_build_commit()) }

    /// What `--version` prints: `glide 0.6.0 (1a2b3c4d5e6f)`; an app built on Glide says which
    /// Glide it runs, `departures (glide 0.6.0, 1a2b3c4d5e6f)`.
    package static func line(program: String) -> String {
        program == "glide" ? "glide \(version) (\(commit))" : "\(program) (glide \(version), \(commit))"
    }
}
