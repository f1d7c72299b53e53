// swift-tools-version:6.1
// A kiosk app outside the Glide package, built against it as any app would be: by path here,
// by URL and version in a real app.
import PackageDescription

let package = Package(
    name: "Departures",
    dependencies: [.package(name: "Glide", path: "../..")],
    targets: [
        .executableTarget(
            name: "Departures", dependencies: [.product(name: "Glide", package: "Glide")],
            // Smaller on a board: the static Swift runtime's link arguments export
            // every symbol of the executable, for no library to call (5 MB), and lld packs
            // the relocations of a position-independent binary (2.6 MB).
            linkerSettings: [
                .unsafeFlags(
                    ["-Xlinker", "--no-export-dynamic", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(platforms: [.linux], configuration: .release))
            ])
    ]
)
