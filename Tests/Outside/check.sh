#!/usr/bin/env bash
# Builds and runs the README's library example as another package would: a new package next to a
# checkout named `glide`, depending on it with `.package(path: "../glide")` and the product
# "Glide", with Sources/ListExample/main.swift as its main. Checks that it runs the flick and the
# tap headless (fonts found from the Glide checkout) and prints the final state.
# Usage: Tests/Outside/check.sh   (from anywhere; works in a scratch folder under /tmp)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${OUTSIDE_WORK:-$(mktemp -d /tmp/glide-outside.XXXXXX)}
mkdir -p "$work/MyKiosk/Sources/MyKiosk"
ln -sfn "$root" "$work/glide"
cat > "$work/MyKiosk/Package.swift" <<'SWIFT'
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "MyKiosk",
    dependencies: [.package(path: "../glide")],
    targets: [.executableTarget(name: "MyKiosk", dependencies: [.product(name: "Glide", package: "glide")])]
)
SWIFT
cp "$root/Sources/ListExample/main.swift" "$work/MyKiosk/Sources/MyKiosk/main.swift"
cd "$work/MyKiosk"
out=$(env -u GLIDE_FONTS swift run MyKiosk 2>&1 | tail -5)
echo "$out"
echo "$out" | grep -q '"scrollViews"' || { echo "outside package: no state printed" >&2; exit 1; }
echo "$out" | grep -q 'tapped row' || { echo "outside package: the tap did not reach a row" >&2; exit 1; }
echo "outside package: built against ../glide and ran the README example"
