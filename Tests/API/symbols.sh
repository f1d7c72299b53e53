#!/usr/bin/env bash
# The public symbol graphs of the package's Swift library modules (its C ones have none),
# extracted from a build's compiled modules (swift-symbolgraph-extract) without building
# anything: CI's one build is the board's optimised one, and `swift package dump-symbol-graph`
# would first compile every module again in debug. The check (check.sh) and the documentation
# (docs.sh) read them.
#   Tests/API/symbols.sh OUT [MODULE...]   every library module by default
#   GLIDE_BIN_PATH: the build's products folder (default: the debug build, built here when out of
#   date); SYMBOLS_FLAGS: more of the extractor's options
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1; shift
[ -n "${GLIDE_BIN_PATH:-}" ] || swift build >/dev/null
bin=${GLIDE_BIN_PATH:-$(swift build --show-bin-path)}
[ -d "$bin/Modules" ] || { echo "symbols: no compiled modules in $bin (build first)" >&2; exit 2; }
modules=("$@")
if [ ${#modules[@]} = 0 ]; then
    read -r -a modules < <(swift package describe --type json | python3 -c 'import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin)["targets"] if t["type"] == "library" and t["module_type"] == "SwiftTarget"))')
fi
flags=(-I "$bin/Modules")
for d in Sources/C*/; do flags+=(-Xcc "-I$d" -I "$d"); done
for m in "$bin"/*.build/module.modulemap; do flags+=(-Xcc "-fmodule-map-file=$m"); done
for d in $(find "$bin/../../checkouts" -type d -name include); do flags+=(-Xcc "-I$d"); done   # the build's own
for d in $(pkg-config --cflags-only-I freetype2 harfbuzz fribidi libdrm | tr ' ' '\n' | sed -n 's/^-I//p'); do flags+=(-Xcc "-I$d"); done
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
rm -rf "$out" && mkdir -p "$out"
for module in "${modules[@]}"; do
    swift-symbolgraph-extract -module-name "$module" -target "$triple" "${flags[@]}" -minimum-access-level public -output-dir "$out" ${SYMBOLS_FLAGS:-}
done
