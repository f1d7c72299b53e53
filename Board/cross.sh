#!/usr/bin/env bash
# Glide for the boards kiosks use (ARCH-1): cross-builds for aarch64 on an x86_64 Debian machine, and
# runs what it built under user-mode emulation.
#
#   Board/cross.sh aarch64                    build the board binary `glide` (release, static Swift
#                                             runtime); its path is the last line printed
#   Board/cross.sh aarch64 --package PATH     build an app package (an executable on Kiosk.run) the same
#                                             way; the folder of its binaries is the last line
#   Board/cross.sh aarch64 run ARGS...        run the aarch64 `glide` with ARGS under qemu-user
#   Board/cross.sh aarch64 test [ARGS...]     build the test suites for aarch64 (optimised) and run them under
#                                             qemu-user (ARGS go to the test runner, e.g. a filter)
#   Board/cross.sh aarch64 sdk                only make the toolchain, the sysroot and the Swift SDK
#
# How: Debian sid has Swift 6.2.3 (`swiftlang`) for amd64 and arm64. An amd64 sid root holds the
# compiler and SwiftPM (the machine's own Swift cannot import the arm64 package's binary-only
# Foundation modules); an arm64 Debian 13 (trixie) root holds the C libraries Glide links and the
# arm64 package's Swift runtime, so the binary needs trixie's glibc (2.41) and no newer: it runs on
# Debian 13 and the Raspberry Pi OS made from it. SwiftPM builds inside the amd64 root (chroot in a
# private mount namespace) with a Swift SDK bundle that points at the arm64 root.
#
# Everything is cached in GLIDE_CROSS_CACHE (default .build-cross in the repository): a root is made
# in a temporary folder and only moved into place once complete, so an interrupted run leaves nothing
# that a later run trusts. Needs root (chroot, mounts), mmdebstrap, qemu-user-static and network
# access to a Debian mirror (GLIDE_CROSS_MIRROR, default deb.debian.org).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
KNOWN="aarch64"
usage() {
    echo "usage: $0 ARCH [--package PATH] | ARCH run ARGS... | ARCH test [ARGS...] | ARCH sdk    (ARCH: $KNOWN)" >&2
    exit 2
}
[ $# -ge 1 ] || usage
ARCH=$1; shift
case "$ARCH" in
    aarch64) DEB_ARCH=arm64; QEMU_USER=qemu-aarch64-static; GNU=aarch64-linux-gnu ;;
    -h|--help) usage ;;
    *) echo "cross.sh: unknown architecture '$ARCH'; known: $KNOWN" >&2; exit 2 ;;
esac
MODE=build; PACKAGE=$ROOT
case "${1:-}" in
    run|test|sdk) MODE=$1; shift ;;
    --package) [ $# -ge 2 ] || usage; PACKAGE=$(cd "$2" && pwd) || { echo "cross.sh: no package folder $2" >&2; exit 2; }; shift 2 ;;
    "") ;;
    *) usage ;;
esac
[ "$MODE" = build ] && [ $# -gt 0 ] && usage

CACHE=$(mkdir -p "${GLIDE_CROSS_CACHE:-$ROOT/.build-cross}" && cd "${GLIDE_CROSS_CACHE:-$ROOT/.build-cross}" && pwd)
MIRROR=${GLIDE_CROSS_MIRROR:-http://deb.debian.org/debian}
TOOLCHAIN_SUITE=sid      # the first suite with Swift 6.2 for both architectures
TARGET_SUITE=trixie      # what the boards run: Debian 13, Raspberry Pi OS 13
HOST=$CACHE/toolchain-amd64-$TOOLCHAIN_SUITE
SYSROOT=$CACHE/sysroot-$DEB_ARCH-$TARGET_SUITE
SDKS=$CACHE/sdks
SDK_NAME=glide-$ARCH-$TARGET_SUITE
# Glide's C libraries for the target (the -dev packages bring the runtime libraries along).
TARGET_PACKAGES=libc6-dev,libstdc++-14-dev,libgcc-14-dev,libdrm-dev,libinput-dev,libudev-dev,libfreetype-dev,libharfbuzz-dev,libfribidi-dev,libpng-dev,libjpeg-dev,libturbojpeg0-dev,zlib1g-dev,libxkbcommon-dev,xkb-data,libx11-data,libespeak-ng-dev,libsndfile1-dev,libasound2-dev,librsvg2-2,gstreamer1.0-plugins-base,gstreamer1.0-plugins-good,gstreamer1.0-libav
HOST_PACKAGES=swiftlang,libc6-dev,git,pkg-config,ca-certificates
. "$HERE/debian-root.sh"
unset GLIDE_TESTABLE   # an x86_64 build's (CI's); the aarch64 builds' own is set below
. "$HERE/size-flags.sh"
say() { printf '== %s (%ss)\n' "$*" "$SECONDS" >&2; }
die() { echo "cross.sh: $*" >&2; exit 1; }

# --- tools ---------------------------------------------------------------------------------------
[ "$(uname -m)" = x86_64 ] || die "this script runs on an x86_64 machine (this is $(uname -m))"
[ "$(id -u)" -eq 0 ] || die "needs root: the toolchain root is entered with chroot in a private mount namespace"
missing=()
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v "$QEMU_USER" >/dev/null || missing+=(qemu-user-static)
command -v unshare >/dev/null || missing+=(util-linux)
if [ ${#missing[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null; then
        say "installing ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
            die "could not install ${missing[*]}: run apt-get update, then apt-get install ${missing[*]}"
    else
        die "missing ${missing[*]} (Debian packages)"
    fi
fi

# A root is complete when its stamp holds the recipe it was made from; anything else is rebuilt.
complete() { [ -f "$1/.glide-complete" ] && [ "$(cat "$1/.glide-complete")" = "$2" ]; }
finish() { echo "$2" > "$1.tmp/.glide-complete"; rm -rf "$1"; mv "$1.tmp" "$1"; }

# Runs a command in the toolchain root: its own mount namespace, so that nothing stays mounted when
# it ends however it ends; the repository, the cache, the package folder and any local git mirror
# (a `url.<path>.insteadOf` of the machine's git config) are seen at their own paths.
in_toolchain() {
    local binds=("$ROOT" "$CACHE" "$PACKAGE") mirrors=() key base
    while read -r key _; do
        base=${key#url.}; base=${base%.insteadof}
        [ -d "$base" ] && mirrors+=("$base")
    done < <(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true)
    {
        for base in "${mirrors[@]}"; do
            while read -r key value; do [ "$key" = "url.$base.insteadof" ] && printf '[url "%s"]\n\tinsteadOf = %s\n' "$base" "$value"; done \
                < <(git config --get-regexp '^url\..*\.insteadof$')
        done
    } > "$HOST/etc/glide-gitconfig"
    cp -L /etc/resolv.conf "$HOST/etc/resolv.conf" 2>/dev/null || true
    unshare -m /bin/bash -s "$HOST" "$@" <<EOF
set -e
mount --make-rprivate /
mount -t proc proc "$HOST/proc"
for d in ${binds[*]} ${mirrors[*]}; do
    mkdir -p "$HOST\$d"; mount --bind "\$d" "$HOST\$d"
done
shift
exec chroot "$HOST" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin:/usr/libexec/swift/bin TERM=dumb GIT_CONFIG_GLOBAL=/etc/glide-gitconfig "\$@"
EOF
}

# --- the toolchain: an amd64 sid root with swiftlang --------------------------------------------
HOST_RECIPE="$TOOLCHAIN_SUITE amd64+arm64 $HOST_PACKAGES"
if ! complete "$HOST" "$HOST_RECIPE"; then
    say "making the toolchain root (Debian $TOOLCHAIN_SUITE, swiftlang): about 1 GB to download"
    rm -rf "$HOST.tmp"
    mmdebstrap --variant=apt --architectures=amd64,$DEB_ARCH --aptopt='Acquire::Check-Valid-Until "false"' \
        --include="$HOST_PACKAGES" "$TOOLCHAIN_SUITE" "$HOST.tmp" "$MIRROR" > "$CACHE/toolchain.log" 2>&1 ||
        { tail -20 "$CACHE/toolchain.log" >&2; die "could not make the toolchain root (log: $CACHE/toolchain.log)"; }
    finish "$HOST" "$HOST_RECIPE"
fi
SWIFT_VERSION=$(in_toolchain swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)
[ -n "$SWIFT_VERSION" ] || die "the toolchain root's swift does not run (rm -rf $HOST to make it again)"

# The root is unpacked, not configured, so Debian's alternatives are not made: libblas.so.3 and
# liblapack.so.3, which ffmpeg's GStreamer plugin loads, stay in their folders. Each gets the
# link the alternative would give it.
link_alternatives() {
    local lib name
    for lib in "$1"/usr/lib/$GNU/blas/lib*.so.[0-9] "$1"/usr/lib/$GNU/lapack/lib*.so.[0-9]; do
        [ -e "$lib" ] || continue
        name=$(basename "$lib")
        [ -e "$1/usr/lib/$GNU/$name" ] || ln -s "$(basename "$(dirname "$lib")")/$name" "$1/usr/lib/$GNU/$name"
    done
}

# --- the target: an arm64 trixie root with Glide's libraries and sid's Swift runtime -------------
# The compiler's package for the target holds its modules and static runtime, libswiftlang the
# shared runtime (the debug test runner links it).
add_swift_runtime() {
    local pkg
    mkdir -p "$CACHE/debs"
    for pkg in swiftlang libswiftlang; do
        if ! ls "$CACHE"/debs/${pkg}_"$SWIFT_VERSION"*_"$DEB_ARCH".deb >/dev/null 2>&1; then
            say "downloading $pkg $SWIFT_VERSION for $DEB_ARCH"
            rm -f "$CACHE"/debs/${pkg}_*_"$DEB_ARCH".deb
            in_toolchain /bin/sh -c "cd '$CACHE/debs' && apt-get update -qq && apt-get download -qq $pkg:$DEB_ARCH=\$(dpkg-query -W -f '\${Version}' swiftlang)" >&2 ||
                die "could not download $pkg:$DEB_ARCH"
        fi
        # The target's own compiler and tools never run (the toolchain root compiles for it): of
        # swiftlang's 2.7 GB only the runtime, the modules and the headers are unpacked (0.3 GB),
        # beside the x86_64 build that CI runs meanwhile.
        dpkg-deb --fsys-tarfile "$(ls "$CACHE"/debs/${pkg}_"$SWIFT_VERSION"*_"$DEB_ARCH".deb | head -1)" |
            tar -x -C "$1" --exclude='./usr/libexec/swift/bin/*' --exclude='./usr/libexec/swift/libexec/*' \
                --exclude='./usr/libexec/swift/lib/lib*.so*' --exclude='./usr/libexec/swift/lib/swift/host/*' \
                --exclude='./usr/libexec/swift/lib/swift/embedded/*'
    done
    # -static-stdlib looks for the static runtime beside the resource folder.
    ln -sfn ../libexec/swift/lib/swift_static "$1/usr/lib/swift_static"
    # Debian's swiftlang leaves out lib_Testing_Foundation, which the test runner links; the module's
    # overlay has no code that Glide's tests use, so an empty library satisfies the linker.
    if [ ! -e "$1/usr/libexec/swift/lib/swift/linux/lib_Testing_Foundation.so" ]; then
        in_toolchain /bin/sh -c "cd /tmp && clang --target=$GNU -c -x c /dev/null -o empty.o && ld.lld -shared -soname lib_Testing_Foundation.so -o '$1/usr/libexec/swift/lib/swift/linux/lib_Testing_Foundation.so' empty.o" ||
            die "could not make the lib_Testing_Foundation stand-in"
    fi
    link_alternatives "$1"
}
if [ "$(cat "$SYSROOT/.glide-complete" 2>/dev/null)" != "$TARGET_SUITE $DEB_ARCH $TARGET_PACKAGES swiftlang-$SWIFT_VERSION" ]; then
    say "making the $ARCH sysroot (Debian $TARGET_SUITE, Glide's libraries, Swift $SWIFT_VERSION's runtime)"
fi
debian_root "$SYSROOT" "$TARGET_SUITE" "$DEB_ARCH" "$TARGET_PACKAGES" "swiftlang-$SWIFT_VERSION" add_swift_runtime ||
    die "could not make the sysroot"

# --- the Swift SDK bundle -------------------------------------------------------------------------
BUNDLE=$SDKS/$SDK_NAME.artifactbundle
if [ ! -f "$BUNDLE/$ARCH/swift-sdk.json" ] || [ "$(readlink "$BUNDLE/$ARCH/sysroot")" != "$SYSROOT" ]; then
    rm -rf "$BUNDLE"; mkdir -p "$BUNDLE/$ARCH"
    ln -s "$SYSROOT" "$BUNDLE/$ARCH/sysroot"
    cat > "$BUNDLE/info.json" <<EOF
{ "schemaVersion": "1.0",
  "artifacts": { "$SDK_NAME": { "type": "swiftSDK", "version": "$SWIFT_VERSION",
    "variants": [ { "path": "$ARCH", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] } ] } } }
EOF
    cat > "$BUNDLE/$ARCH/swift-sdk.json" <<EOF
{ "schemaVersion": "4.0",
  "targetTriples": { "$ARCH-unknown-linux-gnu": {
    "sdkRootPath": "sysroot",
    "swiftResourcesPath": "sysroot/usr/lib/swift",
    "swiftStaticResourcesPath": "sysroot/usr/lib/swift_static",
    "toolsetPaths": ["toolset.json"] } } }
EOF
    cat > "$BUNDLE/$ARCH/toolset.json" <<EOF
{ "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] } }
EOF
fi
# What the test build needs beyond the board build (GLIDE_TESTABLE below says why).
TEST_ONLY=$SDKS/$SDK_NAME-tests
testable_folder "$SYSROOT/usr/libexec/swift/lib/swift/linux" "$TEST_ONLY"
[ "$MODE" = sdk ] && { echo "$BUNDLE"; exit 0; }

# pkg-config answers for the target: its .pc files, with paths inside the sysroot. And what
# Package.swift reads: the commit a build reports, and the suites a test build compiles.
BUILD_ENV=(PKG_CONFIG_SYSROOT_DIR="$SYSROOT" PKG_CONFIG_PATH="$SYSROOT/usr/lib/$GNU/pkgconfig:$SYSROOT/usr/share/pkgconfig"
    GLIDE_COMMIT="$GLIDE_COMMIT" GLIDE_TEST_TARGETS="${GLIDE_TEST_TARGETS:-}")
swift_in_toolchain() {
    in_toolchain /usr/bin/env "${BUILD_ENV[@]}" /bin/sh -c 'cd "$0" && exec swift "$@"' "$@"
}
SDK_ARGS=(--swift-sdks-path "$SDKS" --swift-sdk "$SDK_NAME")
# A package's build folder: the board build's, which the test build shares.
scratch_of() { echo "$CACHE/$ARCH/build-$(basename "$1")"; }
# The test build compiles as the board build does, with --static-swift-stdlib (which SwiftPM
# hands to every compile command but links only executables statically, not the test runner), so
# that the two can share every compiled module; GLIDE_TESTABLE (Package.swift, size-flags.sh)
# adds what the suites need. GLIDE_CROSS_TESTABLE=1 (CI): glide is built with it too, so that the
# two share every compiled module: an aarch64 release build of Glide takes about 13 minutes on two
# cores, and CI needs both. The binary is then the board build with Glide's internal symbols
# exported (the same code and pixels, a larger file); without the variable the board build is
# the shipped one and the test build compiles Glide's modules again.
testable() {
    [ -n "${GLIDE_TESTABLE:-}" ] && return 0
    GLIDE_TESTABLE=$TEST_ONLY
    BUILD_ENV+=(GLIDE_TESTABLE="$TEST_ONLY")
    BOARD_SIZE_FLAGS+=(-Xswiftc -I -Xswiftc "$TEST_ONLY/modules")   # as size-flags.sh adds them
}
[ "${GLIDE_CROSS_TESTABLE:-0}" = 1 ] && testable

# --- build ---------------------------------------------------------------------------------------
if [ "$MODE" = build ] || [ "$MODE" = run ]; then
    NAME=$(basename "$PACKAGE")
    SCRATCH=$(scratch_of "$PACKAGE")
    BUILD=(build -c release --static-swift-stdlib "${SDK_ARGS[@]}" --scratch-path "$SCRATCH" "${BOARD_SIZE_FLAGS[@]}")
    [ "$PACKAGE" = "$ROOT" ] && BUILD+=(--product glide)
    # `run` builds too (seconds when nothing changed): `test` builds in the same folder and
    # leaves a glide there without the static runtime.
    say "building $NAME for $ARCH (release, static Swift $SWIFT_VERSION runtime)"
    swift_in_toolchain "$PACKAGE" "${BUILD[@]}" > "$CACHE/$ARCH-build-$NAME.log" 2>&1 ||
        { grep -E "error|warning: unable" "$CACHE/$ARCH-build-$NAME.log" | head -20 >&2; die "the build failed (log: $CACHE/$ARCH-build-$NAME.log)"; }
    BIN_DIR=$SCRATCH/$ARCH-unknown-linux-gnu/release
    if [ "$MODE" = build ]; then
        if [ "$PACKAGE" = "$ROOT" ]; then
            echo "glide for $ARCH: $(stat -c %s "$BIN_DIR/glide") bytes, needs glibc $(objdump -T "$BIN_DIR/glide" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)" >&2
            echo "$BIN_DIR/glide"
        else
            echo "$BIN_DIR"
        fi
        exit 0
    fi
    # The target's libraries come from the sysroot; the fonts and content from the repository.
    export QEMU_LD_PREFIX=$SYSROOT
    # GStreamer reads its plugins in the process: its scanner, a program of its own, is not
    # started under qemu-user. (Its paths reach the sysroot through QEMU_LD_PREFIX.)
    export GST_REGISTRY_FORK=no
    export GLIDE_FONTS=${GLIDE_FONTS:-$ROOT/Fonts}
    exec "$QEMU_USER" "$BIN_DIR/glide" "$@"
fi

# --- test ----------------------------------------------------------------------------------------
# Optimised by default: under emulation a debug build runs the suites in about an hour (the fuzz
# corpus replay alone takes 11 minutes), an optimised one in minutes. GLIDE_CROSS_TEST_CONFIG=debug
# for the other. The tests' @testable imports need -enable-testing, which SwiftPM gives debug only
# (GLIDE_TESTABLE gives it to Glide's modules).
CONFIG=${GLIDE_CROSS_TEST_CONFIG:-release}
TESTING=()
case "$CONFIG" in
    debug) ;;
    release) TESTING=(--static-swift-stdlib); testable ;;
    *) die "GLIDE_CROSS_TEST_CONFIG is debug or release" ;;
esac
# In the board build's folder: the C libraries (BoringSSL among them) take the same flags in
# both and are compiled once; the Swift modules too with GLIDE_CROSS_TESTABLE=1, and again for
# -enable-testing without it (a board build after this one then compiles them again as well).
SCRATCH=$(scratch_of "$ROOT")
say "building the tests for $ARCH ($CONFIG)"
swift_in_toolchain "$ROOT" build -c "$CONFIG" --build-tests "${TESTING[@]}" "${SDK_ARGS[@]}" --scratch-path "$SCRATCH" "${BOARD_SIZE_FLAGS[@]}" > "$CACHE/$ARCH-build-tests.log" 2>&1 ||
    { grep -E "error" "$CACHE/$ARCH-build-tests.log" | head -20 >&2; die "the test build failed (log: $CACHE/$ARCH-build-tests.log)"; }
RUNNER=$(ls -d "$SCRATCH/$ARCH-unknown-linux-gnu/$CONFIG/"*PackageTests.xctest | head -1)
say "running the tests under $QEMU_USER"
export QEMU_LD_PREFIX=$SYSROOT GST_REGISTRY_FORK=no
export LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux
cd "$ROOT"
# The suites are Swift Testing's, which the runner starts only when asked (as `swift test` does).
exec "$QEMU_USER" "$RUNNER" --testing-library swift-testing "$@"
