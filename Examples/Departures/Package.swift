// swift-tools-version:6.1
// A kiosk app outside the Glide package, built against it as any app would be: by path here,
// by URL and version in a real app.
import PackageDescription

let package = Package(
    name: "Departures",
    dependencies: [.package(name: "Glide", path: "../..")],
    targets: [
        .executableTarget(name: "Departures", dependencies: [.product(name: "Glide", package: "Glide")])
    ]
)
