#!/usr/bin/env bash
# A bootable kiosk image under systemd (issue 14): Debian 12 from Debian's packages (mmdebstrap),
# the static glide with fonts and content, Board/glide@.service enabled for a non-root service
# user, Board/70-glide.rules, no login on the panel's tty1.
#
#   Board/image.sh build [--arch x86_64|aarch64]
#                          .build-image/glide.img (ext4 root file system, made with mkfs.ext4 -d:
#                          no loop devices) and .build-image/initrd.img, a busybox initramfs
#                          that loads the modules and switches to the image's systemd
#   Board/image.sh fetch [--arch x86_64|aarch64]
#                          only the Debian root file system (mmdebstrap, cached) for the glide
#                          already built (GLIDE_BIN names it, as it may for build and test on
#                          x86_64); CI runs it beside other steps
#   Board/image.sh test [--arch x86_64|aarch64]
#                          boots it in QEMU (TCG, virtio-gpu, the image opened read-only with
#                          -snapshot) and checks through the serial console and QMP screendumps;
#                          then, in the same boot, the Debian packages (Board/deb.sh): the image's
#                          own glide removed, glide's package installed with apt, upgraded, removed
#                          and purged, and the example app's installed and purged (image/deb-test.sh)
#
# The kernel and the release build of glide come from Board/vboard.sh (same cache). On aarch64
# (issue 62): Debian 12's arm64 kernel as the aarch64 virtual board boots it, Debian 13 (trixie:
# the aarch64 glide needs its glibc) as the root, the aarch64 glide of Board/cross.sh, QEMU's
# virt machine with a Cortex-A72; the same checks and the same package test with the arm64 package.
# Debian's maintainer scripts for arm64 run under qemu-user while the root is made (binfmt_misc).
# Environment: IMAGE_CACHE (default .build-image, .build-image-aarch64 for aarch64), IMAGE_SIZE
# (panel, 1280x800), IMAGE_DEB (0: no packages in the image, no package test), IMAGE_DEB_APP (the
# app package whose Debian package is tested too, default Examples/Departures on x86_64 and none
# on aarch64, whose app build would take another quarter of an hour; empty: none).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
usage() { echo "usage: $0 build|test|fetch [--arch x86_64|aarch64]" >&2; exit 2; }
MODE=${1:-}
case "$MODE" in build|test|fetch) ;; *) usage ;; esac
ARCH=x86_64
if [ $# -gt 1 ]; then [ "$2" = --arch ] && [ $# -eq 3 ] || usage; ARCH=$3; fi
case "$ARCH" in
    x86_64) DEB_ARCH=amd64; SUFFIX=""; SUITE=bookworm; CONSOLE=ttyS0; STRIP=strip ;;
    aarch64) DEB_ARCH=arm64; SUFFIX=-aarch64; SUITE=trixie; CONSOLE=ttyAMA0; STRIP=aarch64-linux-gnu-strip ;;
    *) echo "image: unknown architecture '$ARCH'; known: x86_64 aarch64" >&2; exit 2 ;;
esac
CACHE=${IMAGE_CACHE:-$ROOT/.build-image$SUFFIX}
VCACHE=${VBOARD_CACHE:-$ROOT/.build-vboard$SUFFIX}
SIZE=${IMAGE_SIZE:-1280x800}
W=${SIZE%x*}; H=${SIZE#*x}
step() { printf '== %s (%ss)\n' "$*" "$SECONDS"; }

missing=()
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
[ "$ARCH" = x86_64 ] || command -v update-binfmts >/dev/null || missing+=(binfmt-support)
[ "$ARCH" = x86_64 ] || command -v arch-test >/dev/null || missing+=(arch-test)   # mmdebstrap checks the emulation with it
/usr/bin/python3 -c "import PIL" 2>/dev/null || missing+=(python3-pil)   # image/host.py reads the screendumps with it
if [ ${#missing[@]} -gt 0 ]; then
    step "installing ${missing[*]}"
    apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi
mkdir -p "$CACHE"

# --- kernel and glide, as the virtual board builds them -------------------------------------------
if [ "$MODE" != fetch ]; then
    # Given a glide (GLIDE_BIN, x86_64), only the kernel is wanted of the virtual board: `fetch`
    # builds neither glide nor the board's own initramfs (16 s in CI, in a build folder that the
    # examples' builds had just replanned).
    vboard_mode=image; [ -n "${GLIDE_BIN:-}" ] && [ "$ARCH" = x86_64 ] && vboard_mode=fetch
    step "kernel and glide (Board/vboard.sh $vboard_mode --arch $ARCH)"
    VBOARD_VKMS=0 VBOARD_EXAMPLE=0 "$HERE/vboard.sh" "$vboard_mode" --arch "$ARCH" > "$CACHE/vboard-image.log" 2>&1 || {
        tail -20 "$CACHE/vboard-image.log"; echo "image: Board/vboard.sh $vboard_mode failed" >&2; exit 1; }
    KVER=$(ls "$VCACHE/kroot/lib/modules" | head -1)
fi
if [ "$ARCH" = x86_64 ]; then
    BIN=${GLIDE_BIN:-$(cd "$ROOT" && swift build -c release --static-swift-stdlib --product glide --scratch-path "$ROOT/.build-board" --show-bin-path)/glide}
    KERNEL=$VCACHE/vmlinux; BUSYBOX=/bin/busybox
    GLIDE=("$BIN")
    MACHINE=(qemu-system-x86_64 -M q35 -cpu max)
else
    BIN=$("$HERE/cross.sh" aarch64 2>/dev/null | tail -1)   # built by vboard.sh just now
    KERNEL=$(ls "$VCACHE"/kroot/boot/vmlinuz-*-arm64 | head -1); BUSYBOX=$VCACHE/userroot/bin/busybox
    GLIDE=("$HERE/cross.sh" aarch64 run)   # the headless renders: that glide under qemu-user
    MACHINE=(qemu-system-aarch64 -M virt -cpu cortex-a72)
    # dpkg runs the arm64 packages' maintainer scripts while mmdebstrap makes the root, and chroot
    # runs useradd in it: both through qemu-user, which the kernel starts for arm64 binaries
    # (binfmt_misc; F: the interpreter is opened now, so that it works inside the chroot too).
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --import qemu-aarch64 >/dev/null 2>&1 || true
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { echo "image: cannot register qemu-aarch64 with binfmt_misc" >&2; exit 1; }
fi

# --- the root file system: Debian's packages only ----------------------------------------------
# glide's shared libraries, by the Debian packages that hold them: on x86_64 this machine's; on
# aarch64 the Depends that Board/deb.sh finds for the arm64 package (Debian 13's names).
D=$CACHE/debs
rm -rf "$D"; mkdir -p "$D"
deb() { "$HERE/deb.sh" "$@" 2>>"$D/deb.log" | tail -1 || { tail -20 "$D/deb.log" >&2; echo "image: Board/deb.sh $* failed" >&2; exit 1; }; }
export DEB_DIST=$D DEB_COMPRESSION="xz -z1"
if [ "$ARCH" = x86_64 ]; then
    LIBS=$(for l in $(ldd "$BIN" | awk '/=> \//{print $3}'); do dpkg -S "$(readlink -f "$l")" 2>/dev/null || dpkg -S "$l"; done \
           | cut -d: -f1 | sort -u | tr '\n' ',')
else
    glide_deb=$(DEB_BIN=$BIN deb --arch arm64)
    LIBS=$(dpkg-deb -f "$glide_deb" Depends | tr ',' '\n' | sed 's/[(|].*//; s/ //g' | grep . | sort -u | tr '\n' ',')
fi
# libx11-data: the compose table that makes physical keyboards' dead keys work;
# fonts-noto-color-emoji: a typed or shown emoji in colour (the default font chain ends with it);
# librsvg2-2: SVG pictures, libespeak-ng1 and libsndfile1: speech (glide loads them at the first
# SVG picture or utterance, so ldd does not list them); openssl: the remote API's self-signed
# certificate, made on the first start, and its fingerprint in the log (issue 64); adduser: the
# Debian packages' postinst makes the service user with it (the test installs them offline).
# GStreamer's base and good plugins: video (issue 63), loaded at the first clip. They play VP8 and
# VP9 in WebM or Matroska (83 MB installed, 22 MB to download); H.264 would need
# gstreamer1.0-libav, whose FFmpeg libraries come to about 500 MB installed, so the image's test
# plays a WebM clip.
PACKAGES="systemd,systemd-sysv,udev,procps,libx11-data,fonts-noto-color-emoji,librsvg2-2,libespeak-ng1,libsndfile1,openssl,adduser"
PACKAGES+=",gstreamer1.0-plugins-base,gstreamer1.0-plugins-good,${LIBS%,}"
MIRROR=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
KEY=$(echo "$PACKAGES $MIRROR $SUITE $DEB_ARCH" | md5sum | cut -c1-12)
if [ ! -f "$CACHE/rootfs-$KEY.tar" ]; then
    step "mmdebstrap: Debian $SUITE $DEB_ARCH minbase with $PACKAGES"
    rm -f "$CACHE"/rootfs-*.tar
    mmdebstrap --quiet --variant=minbase --architectures="$DEB_ARCH" --include="$PACKAGES" --dpkgopt='path-exclude=/usr/share/{doc,man,locale}/*' \
        --aptopt='Acquire::Check-Valid-Until "false"' \
        "$SUITE" "$CACHE/rootfs-$KEY.tar" "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" \
        > "$CACHE/mmdebstrap.log" 2>&1 || { tail -20 "$CACHE/mmdebstrap.log"; echo "image: mmdebstrap failed" >&2; exit 1; }
fi
[ "$MODE" = fetch ] && { step "fetched"; exit 0; }

step "staging the image"
S=$CACHE/stage
rm -rf "$S"; mkdir -p "$S"
tar -xf "$CACHE/rootfs-$KEY.tar" -C "$S"
"$STRIP" -o "$S/usr/local/bin/glide" "$BIN"
mkdir -p "$S/usr/share/glide" "$S/etc/glide"
cp -r "$ROOT/Fonts" "$S/usr/share/glide/Fonts"
cp -r "$ROOT/Board/content" "$S/usr/share/glide/content"
# The backlight that a kiosk owner asks for is missing on QEMU's display: glide warns and blanks
# with a black frame (the test looks for that warning's priority in the journal).
printf '%s\n' '# The kiosk image (Board/image.sh): glide@glide runs `glide board --config` with this file.' \
    'app = catalog' 'idle_blank_seconds = 600' 'blank = backlight' > "$S/etc/glide/board.conf"
cp "$HERE/glide@.service" "$S/etc/systemd/system/"
mkdir -p "$S/etc/systemd/system/glide@.service.d" "$S/etc/systemd/system/multi-user.target.wants"
printf '[Service]\nEnvironment=GLIDE_FONTS=/usr/share/glide/Fonts GLIDE_CONTENT=/usr/share/glide/content\n' \
    > "$S/etc/systemd/system/glide@.service.d/image.conf"
ln -s ../glide@.service "$S/etc/systemd/system/multi-user.target.wants/glide@glide.service"
cp "$HERE/70-glide.rules" "$S/etc/udev/rules.d/"
chroot "$S" useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --groups video,input glide
# No login prompt on the panel, where it would show between the kernel and the first frame.
ln -s /dev/null "$S/etc/systemd/system/getty@tty1.service"
ln -s /dev/null "$S/etc/systemd/system/serial-getty@ttyS0.service"
# An appliance boots only what it uses: no logins on the other VTs (the kiosk's keyboard cannot
# switch to them anyway) nor their utmp records, no LVM snapshot scrub, no module preloading
# (the initramfs loads the drivers), no debug, tracing, FUSE, hugepage or message-queue file
# systems, and none of the generators for disks it does not have (encrypted, verity, GPT
# auto-discovery, hibernation). Less for the board's cores to do while glide starts. The users
# are made when the image is built and the initramfs mounts the root file system with the
# options of /etc/fstab, so neither systemd-sysusers nor systemd-remount-fs has anything to do:
# without them udev starts a second earlier, and with it the permissions glide waits for.
for u in getty-static.service e2scrub_reap.service systemd-update-utmp.service systemd-update-utmp-runlevel.service \
         modprobe@.service systemd-pstore.service systemd-binfmt.service proc-sys-fs-binfmt_misc.automount \
         dev-hugepages.mount dev-mqueue.mount sys-kernel-debug.mount sys-kernel-tracing.mount \
         sys-fs-fuse-connections.mount sys-kernel-config.mount systemd-sysusers.service systemd-remount-fs.service; do
    ln -sf /dev/null "$S/etc/systemd/system/$u"
done
mkdir -p "$S/etc/systemd/system-generators"
for g in systemd-cryptsetup-generator systemd-integritysetup-generator systemd-veritysetup-generator \
         systemd-gpt-auto-generator systemd-hibernate-resume-generator systemd-system-update-generator \
         systemd-getty-generator systemd-run-generator systemd-debug-generator; do
    ln -sf /dev/null "$S/etc/systemd/system-generators/$g"
done
echo glide-kiosk > "$S/etc/hostname"
echo '/dev/vda / ext4 defaults,noatime 0 1' > "$S/etc/fstab"
# The test's own unit: it runs only with glide.imagetest on the kernel command line.
mkdir -p "$S/usr/local/lib/glide"
cp "$HERE/image/image-test.sh" "$S/usr/local/lib/glide/image-test.sh"; chmod +x "$S/usr/local/lib/glide/image-test.sh"
# For its clip check: the clips' catalog with a VP8 WebM clip as its attract loop and in its cards.
mkdir -p "$S/usr/local/lib/glide/video"
cp "$ROOT/Tests/Clips/ball-and-tone.webm" "$S/usr/local/lib/glide/video/"
sed -e 's#"attract\.mp4"#"/usr/local/lib/glide/video/ball-and-tone.webm"#g' -e 's#"images/#"/usr/share/glide/content/images/#g' \
    "$ROOT/Board/content/video.json" > "$S/usr/local/lib/glide/video/video.json"
cat > "$S/etc/systemd/system/glide-image-test.service" <<UNIT
[Unit]
Description=Board/image.sh test: checks on the running kiosk
ConditionKernelCommandLine=glide.imagetest
After=glide@glide.service
[Service]
Type=simple
ExecStart=/usr/local/lib/glide/image-test.sh
StandardInput=tty
TTYPath=/dev/$CONSOLE
StandardOutput=tty
[Install]
WantedBy=multi-user.target
UNIT
ln -s ../glide-image-test.service "$S/etc/systemd/system/multi-user.target.wants/glide-image-test.service"
# The Debian packages for the same boot's package test, in .build-image/debs: glide's from this
# glide and a second build of it with a higher version to upgrade to, the app's from
# Board/app-build.sh in glide's board folder (as Board/vboard.sh builds it, so CI's is already
# built) and its own upgrade the same way. xz at level 1, not 6 as for dist/: 2 s each instead
# of 14, 14% larger (zstd would be faster still, but Debian's archive and lintian take only xz
# and gzip).
cp "$HERE/image/deb-test.sh" "$S/usr/local/lib/glide/deb-test.sh"; chmod +x "$S/usr/local/lib/glide/deb-test.sh"
if [ "${IMAGE_DEB:-1}" != 0 ]; then
    step "Debian packages (Board/deb.sh)"
    mkdir -p "$S/usr/local/lib/glide/debs"
    version=$(sed -n 's/.*static let version = "\([^"]*\)".*/\1/p' "$ROOT/Sources/AppContract/Version.swift")
    [ -n "${glide_deb:-}" ] || glide_deb=$(DEB_BIN=$BIN deb --arch "$DEB_ARCH")
    glide_next=$(DEB_BIN=$BIN DEB_VERSION=$version+test1 deb --arch "$DEB_ARCH")
    # glide's upgraded, removed and then purged; the app's installed and purged at once: both
    # ways through the scripts. The app's upgrade would run the same scripts as glide's (deb.sh
    # writes both) for 27 s more of the guest's time and one more package (issue 62), so it is
    # left to glide's.
    echo "glide $(basename "$glide_deb") $(basename "$glide_next") remove" > "$S/usr/local/lib/glide/debs/tests"
    app_default=""; [ "$ARCH" = x86_64 ] && app_default=$ROOT/Examples/Departures
    app=${IMAGE_DEB_APP-$app_default}
    if [ -n "$app" ]; then
        app_deb=$(APP_BUILD_SCRATCH=$ROOT/.build-board deb --arch "$DEB_ARCH" --app "$app")
        echo "$(basename "$app_deb" | cut -d_ -f1) $(basename "$app_deb")" >> "$S/usr/local/lib/glide/debs/tests"
    fi
    cp "$glide_deb" "$glide_next" ${app:+"$app_deb"} "$S/usr/local/lib/glide/debs/"
    ls -l "$S"/usr/local/lib/glide/debs/*.deb | awk '{print "  " $NF ": " $5 " bytes"}'
fi
step "mkfs.ext4 -d"
rm -f "$CACHE/glide.img"
mkfs.ext4 -q -F -L glide-root -d "$S" "$CACHE/glide.img" 1G
echo "root file system: $(du -sh "$S" | cut -f1) in $CACHE/glide.img"

# --- initramfs: modules, then the image's systemd ------------------------------------------------
I=$CACHE/initramfs
rm -rf "$I"; mkdir -p "$I"/{bin,modules,proc,sys,dev,newroot}
cp "$BUSYBOX" "$I/bin/busybox"
cat > "$I/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
load() { for m in $(cat "/modules/$1"); do insmod "/modules/$m" 2>/dev/null; done; }
# virtio first; then the display and input drivers on one core while the other loads the disk's
# and mounts it.
load base
load display & display=$!
load disk
i=0; while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
mount -t ext4 -o rw,noatime /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; poweroff -f; }
wait $display
umount /proc /sys; mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/init
INIT
chmod +x "$I/init"
# Three lists in load order, each without what an earlier one loads: base, disk, display.
for group in "base virtio_pci" "disk virtio_blk ext4" "display virtio_gpu virtio_input uinput evdev"; do
    set -- $group; name=$1; shift
    for m in "$@"; do modprobe -d "$VCACHE/kroot" -S "$KVER" --show-depends "$m" | awk '/^insmod/{print $2}'; done \
        | awk '!seen[$0]++' | while read -r ko; do
            [ -e "$I/modules/$(basename "$ko")" ] && continue
            cp "$ko" "$I/modules/"; basename "$ko" >> "$I/modules/$name"
        done
done
( cd "$I" && find . | cpio -H newc -o --quiet | gzip -1 > "$CACHE/initrd.img" )
echo "initramfs: $(du -h "$CACHE/initrd.img" | cut -f1), modules: $(cat "$I"/modules/{base,disk,display} | tr '\n' ' ')"
[ "$MODE" = build ] && exit 0

# --- test ----------------------------------------------------------------------------------------
OUT=$CACHE/out
rm -rf "$OUT"; mkdir -p "$OUT"
step "headless render of the first frame (catalog, ${W}x${H})"
echo '{"t":3000,"screenshot":"rest"}' > "$OUT/rest-script.jsonl"
"${GLIDE[@]}" run --backend headless --app catalog --size "${W}x${H}" --script "$OUT/rest-script.jsonl" --out "$OUT/headless" >/dev/null
cp "$OUT/headless/rest.png" "$OUT/expected-first.png"
# The package's config shows the bring-up pattern until the test edits it.
"${GLIDE[@]}" board snapshot --app bringup --size "${W}x${H}" --out "$OUT/expected-bringup.png" >/dev/null
step "booting the image"
APPEND="console=$CONSOLE quiet vt.global_cursor_default=0 panic=-1 glide.imagetest"
QEMU=("${MACHINE[@]}" -nodefaults -no-user-config -m 1024 -smp 2 -accel tcg
      -kernel "$KERNEL" -initrd "$CACHE/initrd.img" -append "$APPEND" -no-reboot -snapshot
      -drive "file=$CACHE/glide.img,format=raw,if=none,id=root" -device virtio-blk-pci,drive=root
      -device "virtio-gpu-pci,xres=$W,yres=$H" -display none -serial stdio)
status=0
# An emulated aarch64 board takes longer: its first frame came 58 to 130 s after QEMU's start
# (x86_64: about 10), its whole run 400-800 s (x86_64: 130-150). Both have room for a host three
# times slower; the boot's screendumps (3 MB each, four a second) stop at the first shot.
IMAGE_BOOT_WATCH_SECONDS=$([ "$ARCH" = x86_64 ] && echo 240 || echo 600) \
IMAGE_QEMU_TIMEOUT_SECONDS=$([ "$ARCH" = x86_64 ] && echo 1800 || echo 3600) \
IMAGE_DEB_TEST=$([ "${IMAGE_DEB:-1}" != 0 ] && echo 1 || echo 0) /usr/bin/python3 "$HERE/image/host.py" "$OUT" "$OUT/expected-first.png" "${QEMU[@]}" || status=$?
step "done"
exit $status
