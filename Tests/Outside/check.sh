#!/usr/bin/env bash
# Builds and runs the README's library example as another package would: a new package in a folder
# of its own, depending on the checkout with `.package(name: "Glide", path: ...)` and the product
# "Glide", with Sources/ListExample/main.swift as its main. Checks that it runs the flick and the
# tap headless (fonts found from the Glide checkout) and prints the final state.
# Usage: Tests/Outside/check.sh   (from anywhere; works in a scratch folder under /tmp)
# OUTSIDE_SCRATCH names the build folder (default MyKiosk/.build), SHARED_BUILD_FLAGS the flags
# of the build there: CI passes its one build (the board's), whose compiled modules are then
# reused. The package depends on the checkout by its real
# path: SwiftPM compiles a module again when its sources' paths change (a link to the checkout) or
# its package's identity, the folder's name, which each compile is given (-package-name); either
# way each of Glide's modules would be compiled again (110 s of CI's 2-core time).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd -P)
work=${OUTSIDE_WORK:-$(mktemp -d /tmp/glide-outside.XXXXXX)}
mkdir -p "$work/MyKiosk/Sources/MyKiosk"
cat > "$work/MyKiosk/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MyKiosk",
    dependencies: [.package(name: "Glide", path: "$root")],
    targets: [.executableTarget(name: "MyKiosk", dependencies: [.product(name: "Glide", package: "Glide")]),
              .executableTarget(name: "MyClock", dependencies: [.product(name: "Glide", package: "Glide")]),
              .executableTarget(name: "MyKnob", dependencies: [.product(name: "Glide", package: "Glide")])]
)
SWIFT
cp "$root/Sources/ListExample/main.swift" "$work/MyKiosk/Sources/MyKiosk/main.swift"
# The other README examples are built here too: outside the package only the public API is
# visible, so an example that leans on package internals fails here.
mkdir -p "$work/MyKiosk/Sources/MyClock" "$work/MyKiosk/Sources/MyKnob"
cp "$root/Sources/ClockExample/main.swift" "$work/MyKiosk/Sources/MyClock/main.swift"
cp "$root/Sources/CustomViewExample/main.swift" "$work/MyKiosk/Sources/MyKnob/main.swift"
# The README shows the examples whole (less their first comment line): a README that drifts
# from the code CI compiles fails here.
for example in ListExample ClockExample CustomViewExample; do
    python3 - "$root/README.md" "$root/Sources/$example/main.swift" <<'PY' || { echo "README.md does not show Sources/$example/main.swift as it is" >&2; exit 1; }
import sys
readme, source = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.exit(0 if source.split("\n", 1)[1].strip() in readme else 1)
PY
done
cd "$work/MyKiosk"
scratch=${OUTSIDE_SCRATCH:-$work/MyKiosk/.build}
read -r -a shared <<< "${SHARED_BUILD_FLAGS:-}"   # the build's flags there (CI: the board build's)
swift build --scratch-path "$scratch" "${shared[@]}"
bin=$(swift build --scratch-path "$scratch" "${shared[@]}" --show-bin-path)   # swift run takes not every build flag
out=$(env -u GLIDE_FONTS "$bin/MyKiosk" 2>&1 | tail -5)
echo "$out"
echo "$out" | grep -q '"scrollViews"' || { echo "outside package: no state printed" >&2; exit 1; }
echo "$out" | grep -q 'tapped row' || { echo "outside package: the tap did not reach a row" >&2; exit 1; }
echo "outside package: built against $root and ran the README example"
