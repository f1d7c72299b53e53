#!/usr/bin/env bash
# Builds an app package (an executable on Kiosk.run) as a stripped static board binary, with the
# settings that make Glide's own `glide` small, and prints the stripped binary's path last:
#
#   Board/app-build.sh DIR [--arch aarch64] [--product NAME]
#
# What it applies, whatever the app's Package.swift says (issue 64):
#   - release, with the Swift runtime linked statically (a board needs no Swift installed);
#   - `--no-export-dynamic`: the static runtime's link arguments export every symbol of the
#     executable, for no library to call (about 5 MB);
#   - lld with packed relative relocations (DT_RELR), when the app's Package.swift names them in
#     its `linkerSettings` (see Examples/Departures/Package.swift; 2.6 MB): SwiftPM passes a
#     choice of linker to every compile too, so given here it would compile every module again;
#   - each function and datum in a section of its own, which the link drops when nothing
#     reaches it (Board/size-flags.sh);
#   - stripped (the symbols and debug information a board never reads).
# Then Board/size-budget reports what fills it, by module. APP_BUILD_SCRATCH names the build
# folder (default DIR/.build-board; aarch64 builds in Board/cross.sh's cache).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/size-flags.sh"
usage() { echo "usage: $0 DIR [--arch aarch64] [--product NAME]" >&2; exit 2; }
[ $# -ge 1 ] || usage
DIR=$(cd "$1" 2>/dev/null && pwd) || { echo "app-build: no package folder $1" >&2; exit 2; }
shift
ARCH=x86_64; PRODUCT=$(basename "$DIR")
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) [ $# -ge 2 ] || usage; ARCH=$2; shift 2 ;;
        --product) [ $# -ge 2 ] || usage; PRODUCT=$2; shift 2 ;;
        *) usage ;;
    esac
done
[ -f "$DIR/Package.swift" ] || { echo "app-build: $DIR has no Package.swift" >&2; exit 2; }
if ! grep -q "pack-relative-relocs" "$DIR/Package.swift"; then
    echo "app-build: $DIR/Package.swift does not link with lld and packed relocations: add the linkerSettings line of" \
        "Examples/Departures/Package.swift to the app's target for 2.6 MB less" >&2
fi
case "$ARCH" in
    x86_64)
        [ "$(uname -m)" = x86_64 ] || { echo "app-build: x86_64 builds on an x86_64 machine" >&2; exit 2; }
        scratch=${APP_BUILD_SCRATCH:-$DIR/.build-board}
        build=(swift build -c release --static-swift-stdlib --product "$PRODUCT" --scratch-path "$scratch" "${BOARD_SIZE_FLAGS[@]}"
            -Xlinker --no-export-dynamic)
        (cd "$DIR" && stable_env "${build[@]}" >&2)
        bin=$(cd "$DIR" && stable_env "${build[@]}" --show-bin-path)/$PRODUCT
        strip_tool=strip
        ;;
    aarch64)
        bin=$("$HERE/cross.sh" aarch64 --package "$DIR" | tail -1)/$PRODUCT
        strip_tool=$(command -v aarch64-linux-gnu-strip || command -v llvm-strip) ||
            { echo "app-build: no strip for aarch64 (apt-get install binutils-aarch64-linux-gnu)" >&2; exit 2; }
        ;;
    *) echo "app-build: unknown architecture '$ARCH' (x86_64 or aarch64)" >&2; exit 2 ;;
esac
[ -x "$bin" ] || { echo "app-build: no executable $bin (name it with --product)" >&2; exit 1; }
stripped=$(dirname "$bin")/$PRODUCT-stripped
"$strip_tool" -o "$stripped" "$bin"
echo "app-build: $PRODUCT for $ARCH, stripped: $(stat -c %s "$stripped") bytes" >&2
echo "$stripped"
