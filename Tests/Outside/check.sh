#!/usr/bin/env bash
# Builds and runs the README's library example as another package would: a new package next to a
# checkout in a folder not named `glide`, depending on it with `.package(name: "Glide", path: ...)` and the product
# "Glide", with Sources/ListExample/main.swift as its main. Checks that it runs the flick and the
# tap headless (fonts found from the Glide checkout) and prints the final state.
# Usage: Tests/Outside/check.sh   (from anywhere; works in a scratch folder under /tmp)
# OUTSIDE_SCRATCH names the build folder (default MyKiosk/.build): CI passes the checkout's own
# .build, whose compiled dependencies (NIO, BoringSSL, Hummingbird, ...) are then reused, so that
# only Glide's modules and the examples are compiled again (about 5 minutes to 1.5).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${OUTSIDE_WORK:-$(mktemp -d /tmp/glide-outside.XXXXXX)}
mkdir -p "$work/MyKiosk/Sources/MyKiosk"
ln -sfn "$root" "$work/glide-checkout"
cat > "$work/MyKiosk/Package.swift" <<'SWIFT'
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MyKiosk",
    dependencies: [.package(name: "Glide", path: "../glide-checkout")],
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
swift build --scratch-path "$scratch"
out=$(env -u GLIDE_FONTS swift run --scratch-path "$scratch" MyKiosk 2>&1 | tail -5)
echo "$out"
echo "$out" | grep -q '"scrollViews"' || { echo "outside package: no state printed" >&2; exit 1; }
echo "$out" | grep -q 'tapped row' || { echo "outside package: the tap did not reach a row" >&2; exit 1; }
echo "outside package: built against ../glide-checkout and ran the README example"
