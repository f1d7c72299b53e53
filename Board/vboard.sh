#!/usr/bin/env bash
# The virtual touchscreen board (BRD-1): Debian's kernel + a small initramfs holding glide, udevd,
# libinput's quirks, the DRM/input modules and a uinput touchscreen injector, booted in QEMU (TCG)
# with a virtio-gpu display.
#
#   Board/vboard.sh test    build the image, boot it, check first frame / swipe / tap / clean exit;
#                           exit status 0 when it passes; screendumps in .build-vboard/out/
#   Board/vboard.sh run     boot the same image in a QEMU window (the pointer acts as a finger)
#   Board/vboard.sh image   only build kernel + initramfs
#   Board/vboard.sh fetch   only what needs no glide: the tools, the kernel, the vkms module and
#                           udev (the arm64 roots on aarch64); CI runs it during the build
#   ... --arch aarch64      the same on an aarch64 board: Debian's arm64 kernel in qemu-system-aarch64
#                           (virt machine, Cortex-A72, TCG), glide and the example cross-built by
#                           Board/cross.sh, arm64 busybox and udev; the headless renders it compares
#                           with come from the aarch64 glide under qemu-user. No VKMS run there (the
#                           module would have to be cross-built for the arm64 kernel).
#
# Environment: VBOARD_SPEECH (1 on x86_64: the screen reader speaks through an emulated sound
# card into .build-vboard/out/board-speech.wav; 0 skips it), VBOARD_KEYS (1: also type on the on-screen keyboard through the touchscreen; 0 skips
# it), VBOARD_APP (default catalog; also list, bringup), VBOARD_EXAMPLE (1: also boot an app
# built outside the package after glide; 0: not), VBOARD_APP_PACKAGE (that app's package folder:
# by default Examples/Departures; any package whose executable runs Kiosk.run), VBOARD_APP_PRODUCT
# (its executable, by default the folder's name), VBOARD_SIZE (panel, 1280x800), VBOARD_ROTATION (0, 90,
# 180, 270: the panel is turned, the app draws an upright canvas, touches are turned back),
# VBOARD_SWIPE ("X1,Y1,X2,Y2,MS,STEPS") and VBOARD_TAP ("X,Y") in canvas pixels,
# GLIDE_BIN (use this glide instead of `swift build -c release`), VBOARD_VKMS (0: no VKMS run),
# VBOARD_CACHE (default .build-vboard in the repository, .build-vboard-aarch64 for aarch64).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
MODE=${1:-test}
case "$MODE" in test|run|image|fetch) ;; *) echo "usage: $0 test|run|image|fetch [--arch x86_64|aarch64]" >&2; exit 2 ;; esac
ARCH=x86_64
if [ $# -ge 2 ]; then
    [ "$2" = --arch ] && [ $# -eq 3 ] || { echo "usage: $0 test|run|image|fetch [--arch x86_64|aarch64]" >&2; exit 2; }
    ARCH=$3
fi
case "$ARCH" in
    x86_64) DEB_ARCH=amd64; SUFFIX="" ;;
    aarch64) DEB_ARCH=arm64; SUFFIX=-aarch64 ;;
    *) echo "vboard: unknown architecture '$ARCH'; known: x86_64 aarch64" >&2; exit 2 ;;
esac
CACHE=${VBOARD_CACHE:-$ROOT/.build-vboard$SUFFIX}
APP=${VBOARD_APP:-catalog}
SIZE=${VBOARD_SIZE:-1280x800}
W=${SIZE%x*}; H=${SIZE#*x}
ROTATION=${VBOARD_ROTATION:-0}
case "$ROTATION" in 0|180) CW=$W; CH=$H ;; 90|270) CW=$H; CH=$W ;; *) echo "VBOARD_ROTATION must be 0, 90, 180 or 270" >&2; exit 2 ;; esac
OUT=$CACHE/out
# Canvas point -> the panel pixel that shows it (what the touchscreen, mounted on the panel, reports).
to_panel() {
    python3 - "$ROTATION" "$CW" "$CH" "$1" <<'PY'
import sys
r, cw, ch, v = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), [int(x) for x in sys.argv[4].split(",")]
def p(x, y):
    return {0: (x, y), 90: (ch - 1 - y, x), 180: (cw - 1 - x, ch - 1 - y), 270: (y, cw - 1 - x)}[r]
points = 2 if len(v) == 6 else 1   # swipe: X1,Y1,X2,Y2,MS,STEPS; tap: X,Y
out = []
for i in range(points): out += p(v[2 * i], v[2 * i + 1])
print(",".join(str(x) for x in out + v[2 * points:]))
PY
}

step() { printf '== %s (%ss)\n' "$*" "$SECONDS"; }

# --- tools -------------------------------------------------------------------------------------
missing=()
if [ "$ARCH" = x86_64 ]; then
    command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
    [ -x /bin/busybox ] && file_is_static=$(ldd /bin/busybox 2>&1 | grep -c "not a dynamic" || true) || file_is_static=0
    [ "$file_is_static" = 1 ] || missing+=(busybox-static)
else
    command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
    command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
fi
command -v cpio >/dev/null || missing+=(cpio)
command -v depmod >/dev/null || missing+=(kmod)
command -v gcc >/dev/null || missing+=(gcc libc6-dev)
command -v make >/dev/null || missing+=(make)
[ "$ARCH" = aarch64 ] || command -v openssl >/dev/null || missing+=(openssl)
/usr/bin/python3 -c "import PIL" 2>/dev/null || missing+=(python3-pil)   # host.py reads the screendumps with it
if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]}"
    apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$CACHE/debs"
# --- aarch64: Debian's arm64 kernel and userland -----------------------------------------------
# Debian 12's kernel (6.1), busybox and udev, as on the x86_64 board, unpacked without running
# anything. glide's own libraries come from the cross sysroot (Debian 13), whose glibc udevadm
# runs on as well. (Debian 13's udevd with this kernel never announced the touchscreen to libinput.)
if [ "$ARCH" = aarch64 ]; then
    . "$HERE/debian-root.sh"
    [ -f "$CACHE/kroot/.glide-complete" ] && [ -f "$CACHE/userroot/.glide-complete" ] || step "unpacking Debian 12's arm64 kernel, busybox, udev and openssl"
    debian_root "$CACHE/kroot" bookworm arm64 linux-image-arm64 || exit 1
    debian_root "$CACHE/userroot" bookworm arm64 busybox-static,udev,openssl || exit 1
    KERNEL=$(ls "$CACHE"/kroot/boot/vmlinuz-*-arm64 | head -1)   # a gzipped Image: QEMU unpacks it
else
    KERNEL=$CACHE/vmlinux
fi
# --- kernel ------------------------------------------------------------------------------------
if [ "$ARCH" = aarch64 ]; then :
elif [ ! -f "$CACHE/vmlinux" ] || [ ! -d "$CACHE/kroot/lib/modules" ]; then
    step "fetching Debian's kernel"
    ( cd "$CACHE/debs" && rm -f linux-image-*.deb &&
      apt-get download linux-image-amd64 >/dev/null 2>&1 &&
      dep=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-6\.1[^ ]*-amd64\).*/\1/p' | head -1) &&
      [ -n "$dep" ] && apt-get download "$dep" >/dev/null 2>&1 )
    rm -rf "$CACHE/kroot"; mkdir -p "$CACHE/kroot"
    dpkg -x "$(ls "$CACHE"/debs/linux-image-6.1*-amd64_*.deb | head -1)" "$CACHE/kroot"
    python3 "$HERE/vboard/extract-vmlinux.py" "$(ls "$CACHE"/kroot/boot/vmlinuz-* | head -1)" "$CACHE/vmlinux"
fi
KVER=$(ls "$CACHE/kroot/lib/modules" | head -1)
[ -f "$CACHE/kroot/lib/modules/$KVER/modules.dep" ] || depmod -b "$CACHE/kroot" "$KVER"

# --- vkms ------------------------------------------------------------------------------------
# The kernel's virtual KMS driver: vertical blanks from a timer, atomic only. Debian does not build
# it (CONFIG_DRM_VKMS is not set), so it is built out of tree from Debian's linux-source-6.1 of the
# booted kernel's version, against that kernel's linux-headers package, unpacked in the cache.
# One call is added: drm_plane_enable_fb_damage_clips() on its planes, so that the primary plane
# has the FB_DAMAGE_CLIPS property (which 6.1's vkms and virtio-gpu lack) and glide's damage
# rectangles go through the kernel's checks; vkms still composes the whole plane. And its two
# encoders (the virtual connector's and the writeback connector's) are made clones of each other:
# 6.1's vkms leaves them unclonable, so the kernel refuses (silently, "failed valid clone check")
# any commit that writes back while the virtual connector is on, which is what reading back the
# frame on screen is. Writeback display engines on real boards offer exactly that.
VKMS_KO=""
if { [ "$MODE" = test ] || [ "$MODE" = fetch ]; } && [ "${VBOARD_VKMS:-1}" != 0 ] && [ "$ARCH" = x86_64 ]; then
    VKMS_KO=$CACHE/vkms/$KVER/vkms-clips-clones.ko
    if [ ! -f "$VKMS_KO" ]; then
        step "building the vkms module for $KVER"
        KDEB_VERSION=$(dpkg-deb -f "$(ls "$CACHE"/debs/linux-image-6.1*-amd64_*.deb | head -1)" Version)
        VK=$CACHE/vkms/build
        rm -rf "$VK"; mkdir -p "$VK/root"
        # The kernel's own version of each, else (the security archive keeps only the newest
        # build of a package shared across kernels, as linux-kbuild-6.1 is) one of the same
        # upstream release (6.1.192-3 for 6.1.192-2): its build tools are the same.
        fetch_kernel_deb() {
            apt-get download "$1=$KDEB_VERSION" >/dev/null 2>&1 && return
            local v
            for v in $(apt-cache madison "$1" | awk -v up="${KDEB_VERSION%-*}-" 'index($3, up) == 1 { print $3 }'); do
                apt-get download "$1=$v" >/dev/null 2>&1 && { echo "vboard: $1 $v for the kernel's $KDEB_VERSION" >&2; return; }
            done
            return 1
        }
        ( cd "$VK" && for deb in linux-source-6.1 "linux-headers-$KVER" "linux-headers-${KVER%-amd64}-common" linux-kbuild-6.1; do
              fetch_kernel_deb "$deb" || exit 1
          done ) || {
            echo "vboard: cannot download the kernel source and headers $KDEB_VERSION for vkms" >&2; exit 1; }
        for deb in "$VK"/linux-headers-*.deb "$VK"/linux-kbuild-*.deb; do dpkg -x "$deb" "$VK/root"; done
        HDR=$VK/root/usr/src/linux-headers-$KVER
        sed -i "s|include /usr/src/|include $VK/root/usr/src/|" "$HDR/Makefile"
        dpkg-deb --fsys-tarfile "$(ls "$VK"/linux-source-6.1_*.deb)" | tar -xO ./usr/src/linux-source-6.1.tar.xz \
            | xz -dc | tar -x -C "$VK" --wildcards 'linux-source-6.1/drivers/gpu/drm/vkms/*'
        SRC=$VK/linux-source-6.1/drivers/gpu/drm/vkms
        sed -i 's|^\(\s*\)drm_plane_helper_add(&plane->base, funcs);|&\n\1drm_plane_enable_fb_damage_clips(\&plane->base);|' "$SRC/vkms_plane.c"
        grep -q drm_plane_enable_fb_damage_clips "$SRC/vkms_plane.c" || { echo "vboard: vkms_plane.c changed; cannot add damage clips" >&2; exit 1; }
        sed -i 's|^\(\s*\)DRM_ERROR("Failed to init writeback connector\\n");|&\n\1else\n\1\tencoder->possible_clones = vkmsdev->output.wb_connector.encoder.possible_clones = drm_encoder_mask(encoder) \| drm_encoder_mask(\&vkmsdev->output.wb_connector.encoder);|' "$SRC/vkms_output.c"
        grep -q possible_clones "$SRC/vkms_output.c" || { echo "vboard: vkms_output.c changed; cannot make its encoders clones" >&2; exit 1; }
        printf 'obj-m := vkms.o\nvkms-y := %s\n' "$(cd "$SRC" && ls *.c | sed 's/\.c$/.o/' | tr '\n' ' ')" > "$SRC/Kbuild"
        make -C "$HDR" M="$SRC" modules > "$VK/build.log" 2>&1 || { tail -20 "$VK/build.log"; echo "vboard: the vkms build failed" >&2; exit 1; }
        mkdir -p "$(dirname "$VKMS_KO")"; cp "$SRC/vkms.ko" "$VKMS_KO"
        rm -rf "$VK"
    fi
fi

# --- udev --------------------------------------------------------------------------------------
if [ "$ARCH" = aarch64 ]; then
    UDEVROOT=$CACHE/userroot
elif [ ! -x "$CACHE/udevroot/bin/udevadm" ]; then
    step "fetching udev"
    ( cd "$CACHE/debs" && rm -f udev_*.deb && apt-get download udev >/dev/null 2>&1 )
    rm -rf "$CACHE/udevroot"; dpkg -x "$(ls "$CACHE"/debs/udev_*.deb | head -1)" "$CACHE/udevroot"
fi
UDEVROOT=${UDEVROOT:-$CACHE/udevroot}
[ "$MODE" = fetch ] && { step "fetched"; exit 0; }

# --- glide -------------------------------------------------------------------------------------
# On aarch64 the host runs the board's binaries under qemu-user, with the sysroot's libraries.
HOSTRUN=()
if [ "$ARCH" = aarch64 ]; then
    SYSROOT=$("$HERE/cross.sh" aarch64 sdk | tail -1)/aarch64/sysroot
    HOSTRUN=(env QEMU_LD_PREFIX="$SYSROOT" qemu-aarch64-static)
fi
# The x86_64 board build's folder, shared with the example app below.
BOARD_SCRATCH=$ROOT/.build-board
if [ -n "${GLIDE_BIN:-}" ]; then
    BIN=$GLIDE_BIN
elif [ "$ARCH" = aarch64 ]; then
    step "cross-building glide for aarch64 (release, static Swift runtime)"
    BIN=$("$HERE/cross.sh" aarch64 2>"$CACHE/build.log" | tail -1) || {
        tail -20 "$CACHE/build.log"; echo "vboard: the aarch64 build failed (log: $CACHE/build.log)" >&2; exit 1; }
else
    # As on a board: one executable with the Swift runtime linked in (SIZE), in its own build
    # folder so that it does not trade places with the ordinary release build.
    step "building glide (release, static Swift runtime)"
    . "$HERE/size-flags.sh"
    BOARD_BUILD=(swift build -c release --static-swift-stdlib --product glide --scratch-path "$BOARD_SCRATCH" "${BOARD_SIZE_FLAGS[@]}")
    ( cd "$ROOT" && stable_env "${BOARD_BUILD[@]}" > "$CACHE/build.log" 2>&1 ) || {
        grep -E "error" "$CACHE/build.log" | head -20; echo "vboard: the build failed (log: $CACHE/build.log)" >&2; exit 1; }
    BIN=$(cd "$ROOT" && stable_env "${BOARD_BUILD[@]}" --show-bin-path)/glide
fi
[ -x "$BIN" ] || { echo "vboard: no glide binary at $BIN" >&2; exit 1; }
# An app outside the package (on Kiosk.run) boots after glide in the test: the Departures
# example, or the package VBOARD_APP_PACKAGE names; static too. The example builds in glide's
# board folder, where every module it shares with glide is already compiled with the same flags
# (about 15 s instead of a second release build of everything); another app in its own package.
# VBOARD_EXAMPLE=0 leaves it out.
EXAMPLE_BIN=""; EXAMPLE_PRODUCT=""; EXAMPLE_KIND=departures
if [ "$MODE" = test ] && [ "${VBOARD_EXAMPLE:-1}" != 0 ]; then
    package=${VBOARD_APP_PACKAGE:-$ROOT/Examples/Departures}
    EXAMPLE_DIR=$(cd "$package" 2>/dev/null && pwd -P) || { echo "vboard: no package folder at $package" >&2; exit 2; }
    [ -f "$EXAMPLE_DIR/Package.swift" ] || { echo "vboard: $EXAMPLE_DIR has no Package.swift" >&2; exit 2; }
    EXAMPLE_PRODUCT=${VBOARD_APP_PRODUCT:-$(basename "$EXAMPLE_DIR")}
    # Departures gets its own checks (its clock, its list); any other app the general ones.
    if [ "$EXAMPLE_DIR" = "$(cd "$ROOT/Examples/Departures" && pwd -P)" ]; then
        EXAMPLE_SCRATCH=$BOARD_SCRATCH
    else
        EXAMPLE_KIND=own; EXAMPLE_SCRATCH=$EXAMPLE_DIR/.build-board
    fi
fi
if [ "$MODE" = test ] && [ "${VBOARD_EXAMPLE:-1}" != 0 ] && [ "$ARCH" = aarch64 ]; then
    step "cross-building $EXAMPLE_PRODUCT ($EXAMPLE_DIR) for aarch64"
    EXAMPLE_BIN=$("$HERE/cross.sh" aarch64 --package "$EXAMPLE_DIR" 2>"$CACHE/example-build.log" | tail -1)/$EXAMPLE_PRODUCT || {
        tail -20 "$CACHE/example-build.log"; echo "vboard: the app's aarch64 build failed (log: $CACHE/example-build.log)" >&2; exit 1; }
elif [ "$MODE" = test ] && [ "${VBOARD_EXAMPLE:-1}" != 0 ]; then
    # As an app's maker builds it for a board (Board/app-build.sh: release, static, stripped).
    step "building $EXAMPLE_PRODUCT ($EXAMPLE_DIR) with Board/app-build.sh"
    EXAMPLE_BIN=$(APP_BUILD_SCRATCH=$EXAMPLE_SCRATCH "$HERE/app-build.sh" "$EXAMPLE_DIR" --product "$EXAMPLE_PRODUCT" 2>"$CACHE/example-build.log" | tail -1) || {
        grep -E "error" "$CACHE/example-build.log" | head -20; echo "vboard: the app's build failed (log: $CACHE/example-build.log)" >&2; exit 1; }
fi
[ -z "$EXAMPLE_BIN" ] || [ -x "$EXAMPLE_BIN" ] || { echo "vboard: no executable $EXAMPLE_BIN (set VBOARD_APP_PRODUCT)" >&2; exit 1; }

# --- the headless render to compare with, and where to touch ------------------------------------
if [ "$MODE" = test ]; then
    rm -rf "$OUT"; mkdir -p "$OUT"
    step "headless render of the first frame ($APP, ${CW}x${CH})"
    if [ "$APP" = bringup ]; then
        "${HOSTRUN[@]}" "$BIN" board snapshot --app bringup --size "${CW}x${CH}" --out "$OUT/expected-first.png"
        TAP=${VBOARD_TAP:-$((CW / 2)),36}
        SWIPE=${VBOARD_SWIPE:-$((CW / 2)),$((CH * 3 / 4)),$((CW / 2)),$((CH * 3 / 8)),400,20}
    else
        # The app at rest after start, on the virtual clock: a screenshot 3 s in, when the start-up
        # animations (the indicator flash) are over. That is what the board must show.
        echo '{"t":3000,"screenshot":"rest"}' > "$OUT/rest-script.jsonl"
        "${HOSTRUN[@]}" "$BIN" run --backend headless --app "$APP" --size "${CW}x${CH}" --script "$OUT/rest-script.jsonl" \
            --out "$OUT/headless" >/dev/null
        cp "$OUT/headless/rest.png" "$OUT/expected-first.png"
        # Tap the trailing side of the first page control; swipe up in the lower part of the first
        # scroll view that scrolls (the feed), from its state JSON.
        read -r DTAP DSWIPE < <(python3 - "$OUT/headless/final.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
pc = (s.get("pageControls") or [{}])[0].get("frame")
# The first scroll view that scrolls vertically (a sidebar whose tabs all fit does not).
sv = next((v["frame"] for v in s.get("scrollViews", []) if v["contentSize"][1] > v["viewportSize"][1] + 1),
          (s.get("scrollViews") or [{}])[0].get("frame"))
tap = f"{int(pc[0] + pc[2] * 0.85)},{int(pc[1] + pc[3] / 2)}" if pc else "-"
swipe = f"{int(sv[0] + sv[2] / 2)},{int(sv[1] + sv[3] * 0.9)},{int(sv[0] + sv[2] / 2)},{int(sv[1] + sv[3] * 0.7)},400,20" if sv else "-"
print(tap, swipe)
PY
)
        TAP=${VBOARD_TAP:-$DTAP}
        SWIPE=${VBOARD_SWIPE:-$DSWIPE}
        [ "$TAP" != - ] && [ "$SWIPE" != - ] || { echo "vboard: set VBOARD_TAP and VBOARD_SWIPE for app $APP" >&2; exit 2; }
    fi
    echo "tap at $TAP, swipe $SWIPE (canvas pixels)"
    if [ -n "$VKMS_KO" ]; then
        # What vkms's writeback connector must read back: the app at rest at vkms's mode.
        step "headless render at vkms's 1024x768"
        if [ "$APP" = bringup ]; then
            "${HOSTRUN[@]}" "$BIN" board snapshot --app bringup --size 1024x768 --out "$OUT/expected-vkms.png"
        else
            "${HOSTRUN[@]}" "$BIN" run --backend headless --app "$APP" --size 1024x768 --script "$OUT/rest-script.jsonl" \
                --out "$OUT/vkms-headless" >/dev/null
            cp "$OUT/vkms-headless/rest.png" "$OUT/expected-vkms.png"
        fi
    fi
    EXAMPLE_SWIPE=0,0,0,0,1,1
    if [ -n "$EXAMPLE_BIN" ]; then
        step "headless render of $EXAMPLE_PRODUCT (${CW}x${CH})"
        echo '{"t":1500,"screenshot":"rest"}' > "$OUT/example-script.jsonl"
        "${HOSTRUN[@]}" "$EXAMPLE_BIN" run --backend headless --size "${CW}x${CH}" --script "$OUT/example-script.jsonl" \
            --out "$OUT/example-headless" >/dev/null
        cp "$OUT/example-headless/rest.png" "$OUT/expected-example.png"
        EXAMPLE_SWIPE=$((CW / 2)),$((CH * 4 / 5)),$((CW / 2)),$((CH * 2 / 5)),400,20
    fi
else
    TAP=0,0; SWIPE=0,0,0,0,1,1
fi
PANEL_SWIPE=$(to_panel "$SWIPE")
PANEL_EXAMPLE_SWIPE=$(to_panel "${EXAMPLE_SWIPE:-0,0,0,0,1,1}")
PANEL_TAP=$(to_panel "$TAP")

# --- initramfs ---------------------------------------------------------------------------------
step "building the initramfs"
IMG=$CACHE/img
rm -rf "$IMG"; mkdir -p "$IMG"/{bin,sbin,lib,lib64,modules,etc,proc,sys,dev,run,tmp,usr/share,lib/udev/rules.d,lib/systemd}
if [ "$ARCH" = aarch64 ]; then
    CROSS=aarch64-linux-gnu-
    cp "$UDEVROOT/bin/busybox" "$IMG/bin/busybox"
else
    CROSS=""
    cp /bin/busybox "$IMG/bin/busybox"
fi
cp "$HERE/vboard/init.sh" "$IMG/init"; chmod +x "$IMG/init"
${CROSS}strip -o "$IMG/bin/glide" "$BIN" 2>/dev/null || cp "$BIN" "$IMG/bin/glide"
if [ -n "${EXAMPLE_BIN:-}" ]; then
    # Under its own name in lower case, as on a board (its messages start with that name).
    EXAMPLE_NAME=$(echo "$EXAMPLE_PRODUCT" | tr 'A-Z' 'a-z')
    ${CROSS}strip -o "$IMG/bin/$EXAMPLE_NAME" "$EXAMPLE_BIN" 2>/dev/null || cp "$EXAMPLE_BIN" "$IMG/bin/$EXAMPLE_NAME"
    echo "$EXAMPLE_NAME" > "$IMG/etc/example"
    echo "$EXAMPLE_PRODUCT in the image: $(stat -c %s "$IMG/bin/$EXAMPLE_NAME") bytes (stripped)"
fi
echo "glide in the image: $(stat -c %s "$IMG/bin/glide") bytes (stripped)"
${CROSS}gcc -static -O2 -o "$IMG/bin/uinput-touch" "$HERE/vboard/uinput-touch.c"
${CROSS}gcc -static -O2 -o "$IMG/bin/kdmode" "$HERE/vboard/kdmode.c"
cp "$UDEVROOT/bin/udevadm" "$IMG/bin/udevadm"
ln -s /bin/udevadm "$IMG/lib/systemd/systemd-udevd"
cp "$UDEVROOT"/lib/udev/rules.d/{50-udev-default,60-drm,60-input-id,60-evdev,60-persistent-input,70-touchpad,80-drivers}.rules \
   "$IMG/lib/udev/rules.d/" 2>/dev/null || true
# The quirks of the libinput glide links: the host's on x86_64, the cross sysroot's on aarch64.
if [ "$ARCH" = aarch64 ]; then cp -r "$SYSROOT/usr/share/libinput" "$IMG/usr/share/libinput"
else cp -r /usr/share/libinput "$IMG/usr/share/libinput"; fi
# Keymaps (xkeyboard-config) and the compose table for physical keyboards' dead keys.
XKBROOT=""; [ "$ARCH" = aarch64 ] && XKBROOT="$SYSROOT"
mkdir -p "$IMG/usr/share/X11/locale"
cp -r "$XKBROOT/usr/share/X11/xkb" "$IMG/usr/share/X11/xkb" 2>/dev/null || echo "no xkb-data: physical keyboards will type no text" >&2
cp -r "$XKBROOT/usr/share/X11/locale/en_US.UTF-8" "$XKBROOT/usr/share/X11/locale/compose.dir" "$XKBROOT/usr/share/X11/locale/locale.alias" \
      "$XKBROOT/usr/share/X11/locale/locale.dir" "$IMG/usr/share/X11/locale/" 2>/dev/null || true
mkdir -p "$IMG/usr/share/glide"
cp -r "$ROOT/Fonts" "$IMG/usr/share/glide/Fonts"
[ -d "$ROOT/Board/content" ] && cp -r "$ROOT/Board/content" "$IMG/usr/share/glide/content"
echo "root:x:0:0:root:/:/bin/sh" > "$IMG/etc/passwd"
printf 'root:x:0:\nvideo:x:44:\ninput:x:105:\ntty:x:5:\naudio:x:29:\nkvm:x:106:\nrender:x:107:\n' > "$IMG/etc/group"
# Shared libraries of glide and udevadm (the dynamic loader included), at their own paths.
# On aarch64 the board's own dynamic loader lists them (under qemu-user), from the roots the
# binaries were linked against: the cross sysroot for glide, the userland root for udevadm.
libs_of() {  # ROOT BINARY: "ROOT PATH" for each library, PATH as on the board
    if [ "$ARCH" = aarch64 ]; then
        QEMU_LD_PREFIX=$1 qemu-aarch64-static "$1/lib/ld-linux-aarch64.so.1" --list "$2" |
            awk -v r="$1" '$1 ~ /^\// {print r, $1; next} $2 == "=>" && $3 ~ /^\// {print r, $3}'
    else
        ldd "$2" | awk '/=> \//{print "/", $3} /^\t\/lib/{print "/", $1}'
    fi
}
GLIDE_LIBROOT=/; UDEV_LIBROOT=/
[ "$ARCH" = aarch64 ] && { GLIDE_LIBROOT=$SYSROOT; UDEV_LIBROOT=$UDEVROOT; }
speech_libs() {  # espeak-ng and libsndfile with theirs: glide loads them at the first utterance
    local lib root path
    for lib in "$GLIDE_LIBROOT"/usr/lib/*-linux-gnu/libespeak-ng.so.1 "$GLIDE_LIBROOT"/usr/lib/*-linux-gnu/libsndfile.so.1; do
        [ -e "$lib" ] || continue
        # Listed from the root, a library's loader may come with the root's path before it.
        { echo "$GLIDE_LIBROOT $lib"; libs_of "$GLIDE_LIBROOT" "$lib"; } |
            while read -r root path; do echo "$root ${path#"${GLIDE_LIBROOT%/}"}"; done
    done
}
# Video (issue 63, x86_64): GStreamer, which glide loads at the first clip, with the plugins an
# H.264 clip in MP4 needs. Its H.264 decoder here is openh264's with h264parse before it
# (gstreamer1.0-plugins-bad, taken from its package when the host lacks it): ffmpeg's would bring
# 180 libraries, 237 MB, into the initramfs. H.264 decoding is exact by its standard: both
# decoders give the same pixels (the shipped clips are Constrained Baseline, which openh264 decodes).
VIDEO=0
GST_PLUGINS="coreelements typefindfunctions playback videoconvertscale app isomp4 videoparsersbad openh264"
if [ "$ARCH" = x86_64 ] && [ -e /usr/lib/x86_64-linux-gnu/libgstapp-1.0.so.0 ]; then
    GST_DIR=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
    if [ ! -e $GST_DIR/libgstopenh264.so ] && [ ! -e "$CACHE/gst/$GST_DIR/libgstopenh264.so" ]; then
        ( mkdir -p "$CACHE/gst" && cd "$CACHE/gst" && apt-get download -qq gstreamer1.0-plugins-bad libgstreamer-plugins-bad1.0-0 libopenh264-7 >/dev/null 2>&1 &&
          for deb in ./*.deb; do dpkg-deb -x "$deb" .; done ) || echo "no openh264 decoder: the board's clip check is skipped" >&2
    fi
    [ -e $GST_DIR/libgstopenh264.so ] || [ -e "$CACHE/gst/$GST_DIR/libgstopenh264.so" ] && VIDEO=1
fi
video_libs() {  # GStreamer's libraries and plugins with theirs, "ROOT PATH" as for the others
    local plugin file
    [ "$VIDEO" = 1 ] || return 0
    for lib in /usr/lib/x86_64-linux-gnu/libgstapp-1.0.so.0 /usr/lib/x86_64-linux-gnu/libgstpbutils-1.0.so.0; do
        echo "/ $lib"; libs_of / "$lib"
    done
    for plugin in $GST_PLUGINS; do
        file=$GST_DIR/libgst$plugin.so
        if [ -e "$file" ]; then echo "/ $file"; LD_LIBRARY_PATH=$CACHE/gst/usr/lib/x86_64-linux-gnu libs_of / "$file"
        else echo "$CACHE/gst $file"; LD_LIBRARY_PATH=$CACHE/gst/usr/lib/x86_64-linux-gnu libs_of / "$CACHE/gst$file"; fi
    done | while read -r root path; do
        # A library only the downloaded package has comes from there.
        case $path in "$CACHE"/gst/*) echo "$CACHE/gst ${path#"$CACHE/gst"}" ;; *) echo "$root $path" ;; esac
    done
}
# The openssl command, as udevadm from the userland root on aarch64 (the host's on x86_64): glide
# makes its remote API's self-signed certificate with it and logs its fingerprint (issue 64).
OPENSSL_BIN=/usr/bin/openssl; [ "$ARCH" = aarch64 ] && OPENSSL_BIN=$UDEVROOT/usr/bin/openssl
cp "$OPENSSL_BIN" "$IMG/bin/openssl"
while read -r libroot lib; do
    mkdir -p "$IMG$(dirname "$lib")"; cp -L "$libroot/$lib" "$IMG$lib"
done < <(libs_of "$UDEV_LIBROOT" "$UDEVROOT/bin/udevadm"   # first: glide's copies (the newer glibc) win
         libs_of "$UDEV_LIBROOT" "$OPENSSL_BIN"
         (libs_of "$GLIDE_LIBROOT" "$BIN"; speech_libs; video_libs; [ -z "${EXAMPLE_BIN:-}" ] || libs_of "$GLIDE_LIBROOT" "$EXAMPLE_BIN") | sort -u)
# Speech (issue 33, x86_64 test runs): an AC97 card whose output QEMU writes to a WAV on
# the host, ALSA's configuration, and espeak-ng's data for English and Japanese.
SPEECH=0; SOUND_MODULES=""
if [ "$ARCH" = x86_64 ] && [ "$MODE" = test ] && [ "${VBOARD_SPEECH:-1}" != 0 ]; then
    SPEECH=1; SOUND_MODULES="snd_intel8x0"
    mkdir -p "$IMG/usr/share" "$IMG/usr/lib/x86_64-linux-gnu/espeak-ng-data"
    cp -r /usr/share/alsa "$IMG/usr/share/alsa"
    ( cd /usr/lib/x86_64-linux-gnu/espeak-ng-data && cp -r phondata phonindex phontab intonations en_dict ja_dict lang voices \
        "$IMG/usr/lib/x86_64-linux-gnu/espeak-ng-data/" )
fi
# Modules and their dependencies in load order, each once.
: > "$IMG/modules/order"
for m in virtio_pci virtio_gpu virtio_input virtio_net uinput evdev $SOUND_MODULES; do
    modprobe -d "$CACHE/kroot" -S "$KVER" --show-depends "$m" | awk '/^insmod/{print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
    cp "$ko" "$IMG/modules/"; basename "$ko" >> "$IMG/modules/order"
done
if [ -n "$VKMS_KO" ]; then mkdir -p "$IMG/modules/extra"; cp "$VKMS_KO" "$IMG/modules/extra/vkms.ko"; fi
( cd "$IMG" && find . | cpio -H newc -o --quiet | gzip -1 > "$CACHE/initrd.img" )
echo "initramfs: $(du -h "$CACHE/initrd.img" | cut -f1), modules: $(tr '\n' ' ' < "$IMG/modules/order")"
[ "$MODE" = image ] && exit 0

# --- boot --------------------------------------------------------------------------------------
# The remote-control API (REM-1) listens on the guest's network address, so it needs a token; QEMU
# forwards a free loopback port of the host to it (user networking, guest 10.0.2.15).
REMOTE_PORT=${VBOARD_REMOTE_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
REMOTE_TOKEN=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
CONSOLE=ttyS0; [ "$ARCH" = aarch64 ] && CONSOLE=ttyAMA0
APPEND="console=$CONSOLE quiet panic=-1 vboard.mode=$MODE vboard.app=$APP vboard.size=${W}x${H} vboard.rotation=$ROTATION vboard.swipe=$PANEL_SWIPE vboard.tap=$PANEL_TAP vboard.exswipe=$PANEL_EXAMPLE_SWIPE vboard.token=$REMOTE_TOKEN vboard.keys=${VBOARD_KEYS:-1} vboard.speech=$SPEECH vboard.video=$VIDEO"
if [ "$ARCH" = aarch64 ]; then MACHINE=(qemu-system-aarch64 -M virt -cpu cortex-a72)
else MACHINE=(qemu-system-x86_64 -M q35 -cpu max); fi
QEMU=("${MACHINE[@]}" -nodefaults -no-user-config -m 1024 -smp 2 -accel tcg
      -kernel "$KERNEL" -initrd "$CACHE/initrd.img" -append "$APPEND" -no-reboot
      -device "virtio-gpu-pci,xres=$W,yres=$H"
      -netdev "user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$REMOTE_PORT-:8080" -device virtio-net-pci,netdev=net0)
if [ "$SPEECH" = 1 ]; then
    rm -f "$OUT/board-speech.wav"
    QEMU+=(-audiodev "wav,id=snd0,path=$OUT/board-speech.wav" -device AC97,audiodev=snd0)
fi
if [ "$MODE" = run ]; then
    step "booting (close the window or Ctrl-C to stop)"
    echo "remote control: https://127.0.0.1:$REMOTE_PORT (Authorization: Bearer $REMOTE_TOKEN; the guest logs its self-signed certificate's SHA-256 fingerprint to pin)"
    if [ -z "${VBOARD_DISPLAY:-}" ]; then
        if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
            VBOARD_DISPLAY=gtk
            [ -e /usr/lib/x86_64-linux-gnu/qemu/ui-gtk.so ] || apt-get install -y --no-install-recommends qemu-system-gui >/dev/null
        else
            VBOARD_DISPLAY=vnc=127.0.0.1:0
            echo "no \$DISPLAY: connect a VNC viewer to 127.0.0.1:5900"
        fi
    fi
    exec "${QEMU[@]}" -serial stdio -display "$VBOARD_DISPLAY" \
        -device virtio-tablet-pci -device virtio-keyboard-pci
fi

step "booting the virtual board"
status=0
VBOARD_SPEECH_EXPECTED=$SPEECH VBOARD_VIDEO_EXPECTED=$VIDEO VBOARD_VKMS=$([ -n "$VKMS_KO" ] && echo 1 || echo 0) VBOARD_EXAMPLE_EXPECTED=${EXAMPLE_BIN:+$OUT/expected-example.png} VBOARD_EXAMPLE_KIND=$EXAMPLE_KIND VBOARD_EXAMPLE_NAME=${EXAMPLE_PRODUCT:-Departures} VBOARD_EXAMPLE_SWIPE=${EXAMPLE_SWIPE:-} VBOARD_VKMS_EXPECTED=${VKMS_KO:+$OUT/expected-vkms.png} VBOARD_REMOTE="127.0.0.1:$REMOTE_PORT" VBOARD_TOKEN=$REMOTE_TOKEN VBOARD_GLIDE=$BIN VBOARD_GLIDE_RUNNER="${HOSTRUN[*]}" VBOARD_CANVAS=${CW}x${CH} VBOARD_APP=$APP \
    /usr/bin/python3 "$HERE/vboard/host.py" "$OUT" "$OUT/expected-first.png" "$ROTATION" "${QEMU[@]}" -display none -serial stdio || status=$?
step "done"
exit $status
