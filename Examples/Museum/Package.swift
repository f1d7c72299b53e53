// swift-tools-version:6.1
// A museum guide written from Glide's README alone, built against Glide as any app would be:
// by path here, by URL and version in a real app.
import PackageDescription

let package = Package(
    name: "Museum",
    dependencies: [.package(name: "Glide", path: "../..")],
    targets: [
        .executableTarget(name: "Museum", dependencies: [.product(name: "Glide", package: "Glide")])
    ]
)
