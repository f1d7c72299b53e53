#!/usr/bin/env bash
# Builds GlideKit's documentation (Sources/GlideKit/GlideKit.docc and the documentation comments
# of every public symbol) with DocC and fails on any warning. Reads the debug build's modules
# (built here when out of date), or GLIDE_BIN_PATH's (CI: the board build's).
#   Tests/API/docs.sh                  the archive in .build/GlideKit.doccarchive
#   Tests/API/docs.sh --preview        the same, served at http://localhost:8080/documentation/glidekit
# GlideKit is the modules it re-exports; a module's symbol graph leaves out what it re-exports,
# so its graph is extracted with the modules named (symbols.sh) and handed to `docc` as the
# package plugin would (without the plugin, which would compile the package in debug first).
set -euo pipefail
cd "$(dirname "$0")/../.."
graphs=.build/glidekit-symbols
reexported=$(sed -n 's/^@_exported import \([A-Za-z]*\)$/\1/p' Sources/GlideKit/GlideKit.swift | grep -v '^Logging$' | paste -sd, -)
SYMBOLS_FLAGS=-experimental-allowed-reexported-modules=$reexported Tests/API/symbols.sh "$graphs" GlideKit
rm -f "$graphs"/GlideKit@*.symbols.json   # Logging's and ArgumentParser's own types are theirs to document
command=(convert --output-path .build/GlideKit.doccarchive)
[ "${1:-}" = --preview ] && command=(preview)
out=$(docc "${command[@]}" Sources/GlideKit/GlideKit.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name GlideKit --fallback-bundle-identifier GlideKit 2>&1) || { echo "$out"; exit 1; }
echo "$out" | tail -3
if echo "$out" | grep -v "swift-distributed-tracing\|CMakeLists.txt" | grep -q "warning:"; then
    echo "$out" | grep -v "swift-distributed-tracing\|CMakeLists.txt" | grep -A8 "warning:" >&2
    echo "DocC warnings: fix them (a broken link, a symbol that is not public, a bad parameter name)" >&2
    exit 1
fi
echo "documentation: no warnings"
