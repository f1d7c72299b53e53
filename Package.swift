// swift-tools-version:6.1
// The dependency edges below are the architecture: pure layers (Geometry, Physics,
// Scrolling, Raster) at the bottom import no C library; adapters on top; `glide` wires.
import PackageDescription

/// The commit a build reports (`glide --version`): the board scripts and CI set GLIDE_COMMIT.
let buildCommit = Context.environment["GLIDE_COMMIT"].flatMap { commit in
    commit.allSatisfy { $0.isHexDigit } && (1...40).contains(commit.count) ? commit : nil
}

let package = Package(
    name: "Glide",
    products: [
        .executable(name: "glide", targets: ["glide"]),
        .library(name: "Glide", targets: ["GlideKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // The remote-control HTTP server; no traits: FoundationEssentials only, no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        // Hummingbird's own lifecycle, used directly for a graceful stop on SIGTERM.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        // Hummingbird's transport, for one channel handler of the remote API (HTTP/1.0 closes).
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.25.0"),
        // HTTP header types, named by the live view's tests.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // The live view's socket (issue 34).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        // TLS for the remote API (issue 46): HTTPS and WSS through HummingbirdTLS, its one BoringSSL.
        // The key and self-signed certificate a board makes on its first start, and their
        // fingerprint, come from the openssl command (issue 64; RemoteControl's OpenSSLCommand).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        // A fleet's metrics (issue 62): `GET /metrics` in Prometheus' text format, recorded through
        // swift-metrics' types into swift-prometheus' registry (one per process, no global bootstrap).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation --target GlideKit`: the API documentation.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Layer 0: pure value types, no C, no clocks.
        .target(name: "Geometry"),
        .target(name: "Physics"),
        // Layer 1: engines.
        .target(name: "Scrolling", dependencies: ["Physics", "Geometry"]),
        // The rasteriser's kernels are SIMD code that runs 10 to 30 times slower unoptimised: a
        // debug build (the tests, the examples' checks) optimises them too. Packages depend on
        // Glide by path, where SwiftPM allows these flags.
        .target(name: "Raster", dependencies: ["Geometry", "CLinux"], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "Text", dependencies: ["Raster", "CFreeType", "CHarfBuzz", "CFriBidi"]),
        // Text entry's model and keyboard layouts (issue 32): pure, no views, no clocks.
        .target(name: "TextEditing", dependencies: ["Localization"]),
        // The words of built-in views, one table per language: pure.
        .target(name: "Localization"),
        // Adapters.
        .target(name: "ImageCodecs", dependencies: ["Raster", "SharedLibraries", "CPNG", "CPNGRows", "CJPEG", "CRsvg"]),
        // dlopen of the C libraries loaded at their first use (librsvg, espeak-ng, libsndfile).
        .target(name: "SharedLibraries"),
        // libpng's row API reports errors by longjmp: it is driven from C, never from Swift.
        .target(name: "CPNGRows", dependencies: ["CPNG"]),
        .target(name: "FeelLab", dependencies: ["Scrolling"]),
        // The contracts between apps and devices, and the loop machinery that drives them.
        .target(name: "AppContract", dependencies: ["Raster", "Geometry", "CLinux", "CBuildInfo", "SharedLibraries", .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .target(name: "Runtime", dependencies: ["AppContract", "Raster", "Geometry", "CLinux", .product(name: "Logging", package: "swift-log")]),
        // The UI core in layers, each importing only those above it in this list (issue 42):
        // views and their roles and environment; the touch arena and focus; the accessibility
        // tree and screen reader; the built-in views; text entry; and the window on top, which
        // re-exports them all. Only UI knows the window's type; nothing below names a widget.
        .target(name: "ViewCore", dependencies: ["AppContract", "Localization", "Scrolling", "Physics", "Text", "Raster", "Geometry",
                                                 .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                                 .product(name: "Logging", package: "swift-log")]),
        .target(name: "Gestures", dependencies: ["ViewCore", "AppContract", "Scrolling", "Physics", "Geometry"]),
        .target(name: "Accessibility", dependencies: ["ViewCore", "Gestures", "AppContract", "Localization", "Scrolling", "Geometry"]),
        .target(name: "Widgets", dependencies: ["ViewCore", "Gestures", "Localization", "Scrolling", "Physics", "Text", "Raster", "Geometry"]),
        .target(name: "Controls", dependencies: ["ViewCore", "Widgets", "Localization", "Physics", "AppContract", "Text", "Raster", "Geometry"]),
        .target(name: "TextInput", dependencies: ["ViewCore", "Gestures", "Widgets", "AppContract", "Localization", "Scrolling", "Text",
                                                  "TextEditing", "Raster", "Geometry"]),
        // Video through GStreamer, loaded at the first clip (issue 63).
        .target(name: "Video", dependencies: ["ViewCore", "Widgets", "AppContract", "Raster", "Geometry", "SharedLibraries", "CGStreamer", "CALSA",
                                              .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                              .product(name: "Logging", package: "swift-log")]),
        .target(name: "UI", dependencies: ["ViewCore", "Gestures", "Accessibility", "Widgets", "TextInput", "Video", "AppContract", "Localization",
                                           "Scrolling", "Physics", "Text", "TextEditing", "Raster", "Geometry",
                                           .product(name: "Logging", package: "swift-log")]),
        .target(name: "Headless", dependencies: ["Runtime", "Raster", "Geometry"]),
        // Speech for the screen reader (issue 33): espeak-ng, to a WAV headless.
        .target(name: "Speech", dependencies: ["AppContract", "ImageCodecs", "SharedLibraries", "CEspeakNG", "CSndFile", "CALSA", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .target(name: "GlideKit", dependencies: ["UI", "Controls", "Video", "Audit", "ViewCore", "Gestures", "Accessibility", "Widgets", "TextInput", "Headless", "AppContract", "Scrolling", "Raster", "Geometry", "Text", "TextEditing", "Localization", "ImageCodecs", "KioskRuntime", .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "ListExample", dependencies: ["GlideKit"]),
        .executableTarget(name: "ClockExample", dependencies: ["GlideKit"]),
        .executableTarget(name: "CustomViewExample", dependencies: ["GlideKit"]),
        .executableTarget(name: "PhotoListExample", dependencies: ["GlideKit"]),
        // The accessibility audit (issue 49): WCAG and EAA rules checked on a window and its pixels, pure.
        .target(name: "Audit", dependencies: ["UI", "Widgets", "ViewCore", "Accessibility", "Raster", "Geometry"]),
        .target(name: "Catalog", dependencies: ["UI", "Controls", "Video", "ViewCore", "Localization", "AppContract", "ImageCodecs", "Scrolling", "Text", "Raster", "Geometry"]),
        .target(name: "FeedScene", dependencies: ["Geometry", "Raster", "Text"]),
        .target(name: "ZoomScene", dependencies: ["Geometry", "Raster"]),
        // Board adapters (issue 6): DRM/KMS output, libinput input, config, the event loop.
        .target(name: "LinuxDRM", dependencies: ["Runtime", "Raster", "Geometry", "CDRM", "CUdev"]),
        .target(name: "LinuxInput", dependencies: ["AppContract", "Geometry", "TouchCalibration", "CInput", "CXKBCommon", .product(name: "Logging", package: "swift-log")]),
        // Five-point touch calibration (issue 14): the least-squares fit and the session, pure.
        .target(name: "TouchCalibration", dependencies: ["AppContract", "Geometry"]),
        // Reads its file with FileIO (ImageCodecs holds the project's file reading).
        .target(name: "BoardConfig", dependencies: ["AppContract", "Geometry", "ImageCodecs"]),
        .target(name: "BoardLoop", dependencies: ["Runtime", "Raster", "Geometry", "LinuxDRM", "LinuxInput", "ImageCodecs", .product(name: "Logging", package: "swift-log")]),
        // What a running glide counts for a fleet's Prometheus: frames, latency, touches, requests.
        .target(name: "FleetMetrics", dependencies: [
            "Runtime", "AppContract",
            .product(name: "CoreMetrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        // Remote control (issue 7): HTTP API for tests, and a real-time headless loop that serves it.
        .target(name: "RemoteControl", dependencies: [
            "Runtime", "FleetMetrics", "Raster", "Geometry", "Headless", "ImageCodecs", "CZlib",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The runtime every app runs on: board bring-up, headless and remote runs, the
        // command line an app executable shares with `glide`.
        .target(name: "KioskRuntime", dependencies: [
            "Runtime", "UI", "Text", "Headless", "ImageCodecs", "BoardConfig", "BoardLoop", "LinuxDRM", "LinuxInput", "RemoteControl", "FleetMetrics", "Speech",
            "TouchCalibration", "Audit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Composition root: CLI only.
        .executableTarget(name: "glide", dependencies: [
            "FeelLab", "FeedScene", "ZoomScene", "ImageCodecs", "Catalog", "Video", "Headless", "UI", "Widgets", "ViewCore",
            "BoardConfig", "BoardLoop", "Runtime", "KioskRuntime",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [
            // The static Swift runtime's link arguments export every symbol of the executable
            // (48,000 names, 4.9 MB of the stripped board binary) for no library to call. And
            // the 124,000 relocations a position-independent binary needs at load, 24 bytes
            // each with gold, are packed as bitmaps by lld (DT_RELR, glibc 2.36): 2.6 MB less.
            .unsafeFlags(
                ["-Xlinker", "--no-export-dynamic", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                .when(platforms: [.linux], configuration: .release)),
        ]),

        // C libraries from Debian, one system-library target each.
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        // The Unicode bidirectional algorithm (UAX #9) for right-to-left text.
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        // GStreamer's C API as function pointer types: loaded with dlopen at the first video (see shim.h).
        .systemLibrary(name: "CGStreamer", path: "Sources/CGStreamer"),
        // librsvg's C API as function pointer types: loaded with dlopen at the first SVG (see shim.h).
        .systemLibrary(name: "CRsvg", path: "Sources/CRsvg"),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // Linux calls Swift's Glibc module leaves out (eventfd); no library to link.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        .target(name: "CBuildInfo", cSettings: buildCommit.map { [.define("GLIDE_COMMIT", to: "\"\($0)\"")] } ?? []),
        .systemLibrary(name: "CUdev", path: "Sources/CUdev", pkgConfig: "libudev",
                       providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CDRM", path: "Sources/CDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CXKBCommon", path: "Sources/CXKBCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev", "xkb-data", "libx11-data"])]),
        // Headers only: their libraries are loaded with dlopen when speech is first made (see shim.h).
        .systemLibrary(name: "CEspeakNG", path: "Sources/CEspeakNG", providers: [.apt(["libespeak-ng-dev", "espeak-ng-data"])]),
        .systemLibrary(name: "CSndFile", path: "Sources/CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CALSA", path: "Sources/CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CInput", path: "Sources/CInput", pkgConfig: "libinput",
                       providers: [.apt(["libinput-dev", "libudev-dev"])]),

        // Tests.
        .target(name: "TestSupport", dependencies: ["Raster", "ImageCodecs"], path: "Tests/TestSupport"),
        .testTarget(name: "PhysicsTests", dependencies: ["Physics"]),
        .testTarget(name: "ScrollingTests", dependencies: ["Scrolling", "TestSupport"]),
        .testTarget(name: "FeelLabTests", dependencies: ["FeelLab", "Geometry", "TestSupport"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestSupport"]),
        .testTarget(name: "TextTests", dependencies: ["Text", "TestSupport"]),
        .testTarget(name: "TextEditingTests", dependencies: ["TextEditing"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"], exclude: ["cldr-48.json", "generate-locale-data.py"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "SharedLibraries", "Runtime", "ImageCodecs"]),
        .testTarget(name: "LinuxDRMTests", dependencies: ["LinuxDRM", "Runtime", "Raster", "Geometry"]),
        .testTarget(name: "LinuxInputTests", dependencies: ["LinuxInput", "TouchCalibration", "Runtime", "Geometry"]),
        .testTarget(name: "TouchCalibrationTests", dependencies: ["TouchCalibration", "Runtime", "Geometry"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Headless", "UI", "Text", "Raster", "Geometry", .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .testTarget(name: "KioskRuntimeTests", dependencies: ["KioskRuntime", "BoardConfig", "RemoteControl", "TouchCalibration", "Headless", "Runtime", "UI", "Text", "TestSupport", "ImageCodecs", "Raster", "ViewCore", "Audit", "Catalog", "Widgets", "Controls", "TextInput", "Geometry",
                                                             .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "BoardConfigTests", dependencies: ["BoardConfig", "Geometry"]),
        .testTarget(name: "RemoteControlTests", dependencies: ["RemoteControl", "Runtime", "UI", "Catalog", "ImageCodecs", "Raster", "Headless", "CZlib", "TestSupport",
                                                              .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                                              .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ZoomSceneTests", dependencies: ["ZoomScene", "Runtime", "Raster", "Geometry", "ImageCodecs", "TestSupport"]),
        .testTarget(name: "FeedSceneTests", dependencies: ["FeedScene", "Text", "ImageCodecs", "TestSupport"]),
        .testTarget(name: "UITests", dependencies: ["UI", "Video", "AppContract", "Controls", "ViewCore", "TextInput", "Widgets", "Headless", "Runtime", "Scrolling", "Text", "Raster", "Geometry", "ImageCodecs", "TestSupport", .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        .testTarget(name: "EndToEndTests", dependencies: ["AppContract", "Catalog", "UI", "Headless", "Runtime", "Scrolling", "Text", "Raster", "Geometry", "ImageCodecs", "Speech", "TestSupport"]),
        // Fuzzing (issue 13): the targets, the libFuzzer driver (Tests/Fuzz/run.sh builds it with
        // the sanitizers; a plain build replays inputs) and the kept corpora as regression tests.
        .target(name: "FuzzTargets", dependencies: ["Runtime", "Catalog", "BoardConfig", "FeelLab", "ImageCodecs", "Text", "TextEditing",
                                                    "Raster", "Scrolling", "Geometry", "UI"], path: "Tests/Fuzz/Targets"),
        .executableTarget(name: "glide-fuzz", dependencies: ["FuzzTargets", "Runtime", "CFuzzer"], path: "Tests/Fuzz/Driver"),
        .systemLibrary(name: "CFuzzer", path: "Tests/Fuzz/CFuzzer"),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Audit", "UI", "Controls", "ViewCore", "Headless", "Runtime", "Text", "Raster", "Geometry", "ImageCodecs", "TestSupport"]),
    ]
)

/// The names a comma-separated variable lists, all of them among `known`; nil when it is unset or
/// empty. A name that is not known stops the manifest with it.
func listed(_ variable: String, among known: [String]) -> Set<String>? {
    guard let list = Context.environment[variable], !list.isEmpty else { return nil }
    let wanted = Set(list.split(separator: ",").map(String.init))
    precondition(wanted.isSubset(of: known), "\(variable) names what the package does not hold: \(wanted.subtracting(known).sorted())")
    return wanted
}

// GLIDE_TEST_TARGETS (comma-separated suite names) builds only those test targets: CI's aarch64
// run compiles, optimised and under emulation, just the suites an architecture can change
// (Board/cross.sh passes the variable on). Unset or empty, every suite is built. Of the
// executables it keeps glide alone: that run uses no other, and each would be linked statically.
if let wanted = listed("GLIDE_TEST_TARGETS", among: package.targets.filter { $0.type == .test }.map(\.name)) {
    package.targets.removeAll { ($0.type == .test && !wanted.contains($0.name)) || ($0.type == .executable && $0.name != "glide") }
}

// GLIDE_EXECUTABLES (comma-separated; CI's x86_64 build) builds only those executables. CI builds
// the others elsewhere: ListExample and CustomViewExample as apps outside the package
// (Tests/Outside/check.sh), glide-fuzz with its sanitizers (Tests/Fuzz/run.sh).
if let wanted = listed("GLIDE_EXECUTABLES", among: package.targets.filter { $0.type == .executable }.map(\.name)) {
    package.targets.removeAll { $0.type == .executable && !wanted.contains($0.name) }
}

// GLIDE_TESTABLE=FOLDER (CI; Board/size-flags.sh): the suites are built as the board is,
// optimised with the static Swift runtime, in the board build's folder, so that one build serves
// both. Glide's modules get -enable-testing for the suites' @testable imports (SwiftPM gives it
// to debug builds only; to theirs alone: given to every module, the dependencies too, it grew
// glide's stripped binary from 27.14 to 27.97 MB), and the test runner's link finds its stand-ins in FOLDER (size-flags.sh makes it, and
// hands every compile FOLDER's Testing and XCTest modules, with SwiftPM's own test modules).
if let folder = Context.environment["GLIDE_TESTABLE"], !folder.isEmpty {
    for target in package.targets where target.type == .regular || target.type == .executable {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"])]
    }
    for target in package.targets where target.type == .test {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-L", "\(folder)/stubs"])]
    }
}
// GLIDE_SUITES_UNOPTIMISED=1 (CI's x86_64 build): the suites' own code -Onone, as `swift test`
// builds it; what they test stays optimised. It saved 47 s of that build. Not on aarch64, where
// the suites run under qemu-user: there it cost about 100 s of their run (226 s against 127).
if Context.environment["GLIDE_SUITES_UNOPTIMISED"] == "1" {
    for target in package.targets where target.type == .test {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
    }
}
