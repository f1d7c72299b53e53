#!/usr/bin/env bash
# Builds GlideKit's documentation (Sources/GlideKit/GlideKit.docc and the documentation comments
# of every public symbol) and fails on any DocC warning. Run after a debug build.
#   Tests/API/docs.sh                  the archive in .build/plugins/Swift-DocC/outputs/GlideKit.doccarchive
#   Tests/API/docs.sh --preview        the same, served at http://localhost:8080/documentation/glidekit
# GlideKit is the modules it re-exports; SwiftPM's symbol graph of a module leaves out what it
# re-exports, so the symbols are extracted here with the modules named, then given to
# `swift package generate-documentation --target GlideKit` as an additional symbol graph.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(swift build --show-bin-path)
graphs=.build/glidekit-symbols
rm -rf "$graphs" && mkdir -p "$graphs"
reexported=$(sed -n 's/^@_exported import \([A-Za-z]*\)$/\1/p' Sources/GlideKit/GlideKit.swift | grep -v '^Logging$' | paste -sd, -)
flags=(-I "$bin/Modules")
for d in Sources/C*/; do flags+=(-Xcc "-I$d" -I "$d"); done
for m in "$bin"/*.build/module.modulemap; do flags+=(-Xcc "-fmodule-map-file=$m"); done
for d in $(find .build/checkouts -type d -name include); do flags+=(-Xcc "-I$d"); done
for d in $(pkg-config --cflags-only-I freetype2 harfbuzz fribidi libdrm | tr ' ' '\n' | sed -n 's/^-I//p'); do flags+=(-Xcc "-I$d"); done
swift-symbolgraph-extract -module-name GlideKit -target "$(swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')" \
    "${flags[@]}" -minimum-access-level public -experimental-allowed-reexported-modules="$reexported" -output-dir "$graphs"
rm -f "$graphs"/GlideKit@*.symbols.json   # Logging's and ArgumentParser's own types are theirs to document
command=(generate-documentation)
[ "${1:-}" = --preview ] && command=(--disable-sandbox preview-documentation)
out=$(swift package "${command[@]}" --target GlideKit --additional-symbol-graph-dir "$graphs" 2>&1) || { echo "$out"; exit 1; }
echo "$out" | tail -3
if echo "$out" | grep -v "swift-distributed-tracing\|CMakeLists.txt" | grep -q "warning:"; then
    echo "$out" | grep -v "swift-distributed-tracing\|CMakeLists.txt" | grep -A8 "warning:" >&2
    echo "DocC warnings: fix them (a broken link, a symbol that is not public, a bad parameter name)" >&2
    exit 1
fi
echo "documentation: no warnings"
