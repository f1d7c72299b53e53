#!/usr/bin/env bash
# Glide vs pixman on aarch64, as far as an x86_64 machine can tell (ARCH-1): the R1 feed and R2 zoom
# benchmarks of the cross-built glide (Board/cross.sh) against the peers of ../shared/bench/peers
# built for aarch64 against Debian 13's arm64 pixman (which has NEON paths) and cairo, all run in
# one aarch64 virtual machine (Debian 12's arm64 kernel, qemu-system-aarch64, Cortex-A72, one CPU)
# with `-icount shift=0`: the guest's clock then advances one nanosecond per instruction executed,
# so every "ms" the benchmarks print is a count of millions of instructions, the same however
# loaded the host is. Time under emulation means nothing (TCG runs a NEON instruction as a call
# into a helper, a scalar one as a few host instructions); instruction counts say how much work
# each side asks of the core.
#
# Usage: Tests/Peers/pixman/aarch64.sh [--size WxH] [--peers DIR]      (default 1280x800)
# Needs what Board/cross.sh and Board/vboard.sh --arch aarch64 need; caches in .build-cross/bench.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
size=1280x800
peers="$root/../shared/bench/peers"
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --peers) peers=$2; shift 2 ;;
        *) echo "usage: $0 [--size WxH] [--peers DIR]" >&2; exit 2 ;;
    esac
done
[ -f "$peers/zoom_pixman.c" ] || { echo "$0: no peer sources in $peers (pass --peers DIR)" >&2; exit 2; }
W=${size%x*}; H=${size#*x}
cache=${GLIDE_CROSS_CACHE:-$root/.build-cross}/bench
mkdir -p "$cache"
say() { printf '== %s (%ss)\n' "$*" "$SECONDS" >&2; }

# The kernel and busybox of the aarch64 virtual board (its image step makes them).
VBOARD_EXAMPLE=0 "$root/Board/vboard.sh" image --arch aarch64 >/dev/null
vb=${VBOARD_CACHE:-$root/.build-vboard-aarch64}
kernel=$(ls "$vb"/kroot/boot/vmlinuz-*-arm64 | head -1)
glide=$("$root/Board/cross.sh" aarch64 2>/dev/null | tail -1)

# The peers' libraries for arm64: pixman, cairo, FreeType and the DejaVu font they draw with.
sysroot=$cache/peers-root
. "$root/Board/debian-root.sh"
debian_root "$sysroot" trixie arm64 libc6-dev,libpixman-1-dev,libcairo2-dev,libfreetype-dev,fonts-dejavu-core
say "building the peers for aarch64 (gcc -O2, pixman $(sed -n 's/^Version: //p' "$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig/pixman-1.pc"))"
rm -rf "$cache/peers"
PKG_CONFIG_SYSROOT_DIR=$sysroot PKG_CONFIG_LIBDIR=$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig \
    make -s -C "$peers" CC="aarch64-linux-gnu-gcc --sysroot=$sysroot" OUT="$cache/peers" >&2

# An initramfs that runs the benchmarks one after the other and prints their output.
say "packing the benchmark initramfs"
img=$cache/img; rm -rf "$img"; mkdir -p "$img"/{bin,proc,sys,dev,tmp,usr/share/fonts/truetype}
cp "$vb/userroot/bin/busybox" "$img/bin/busybox"
aarch64-linux-gnu-strip -o "$img/bin/glide" "$glide"
cp "$cache"/peers/{feed_pixman,zoom_pixman,floor} "$img/bin/"
cp -r "$root/Fonts" "$img/Fonts"
cp "$root/Board/content/images/zoom.png" "$img/zoom.png"
cp -r "$sysroot/usr/share/fonts/truetype/dejavu" "$img/usr/share/fonts/truetype/"
glide_root=$(readlink -f "$("$root/Board/cross.sh" aarch64 sdk 2>/dev/null | tail -1)/aarch64/sysroot")
libs() {  # ROOT BINARY...: the libraries the board's loader finds for each, copied from ROOT
    local r=$1; shift
    for bin in "$@"; do
        QEMU_LD_PREFIX=$r qemu-aarch64-static "$r/lib/ld-linux-aarch64.so.1" --list "$bin" |
            awk '$1 ~ /^\// {print $1; next} $2 == "=>" && $3 ~ /^\// {print $3}'
    done | sort -u | while read -r lib; do mkdir -p "$img$(dirname "$lib")"; cp -L "$r$lib" "$img$lib"; done
}
libs "$glide_root" "$glide"
libs "$sysroot" "$cache"/peers/*
cat > "$img/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t devtmpfs dev /dev; mount -t tmpfs tmpfs /tmp
export GLIDE_FONTS=/Fonts
echo "@@zoom-glide"; glide bench zoom --size $size --threads 1 --frames 60 --warmup 5 --image /zoom.png
echo "@@zoom-pixman"; zoom_pixman /zoom.png $W $H 60
echo "@@feed-glide"; glide bench feed --size $size --threads 1 --frames 100 --warmup 10
echo "@@feed-glide-inc"; glide bench feed --size $size --threads 1 --incremental --frames 100 --warmup 10
echo "@@zoom-glide-2"; glide bench zoom --size $size --threads 2 --frames 20 --warmup 5 --image /zoom.png
echo "@@feed-glide-2"; glide bench feed --size $size --threads 2 --frames 100 --warmup 10
echo "@@feed-pixman"; feed_pixman -W $W -H $H -n 100 -w 10
echo "@@floor"; floor -W $W -H $H
echo "@@done"
poweroff -f
EOF
chmod +x "$img/init"
(cd "$img" && find . | cpio -H newc -o --quiet | gzip -1 > "$cache/initrd.img")

say "running in qemu-system-aarch64 -icount shift=0 (this takes a few minutes)"
timeout 3600 qemu-system-aarch64 -nodefaults -no-user-config -M virt -cpu cortex-a72 -smp 1 -m 1024 \
    -accel tcg -icount shift=0 -kernel "$kernel" -initrd "$cache/initrd.img" \
    -append "console=ttyAMA0 quiet panic=-1" -no-reboot -display none -serial stdio < /dev/null \
    | tr -d '\r' > "$cache/out.txt"
grep -q "@@done" "$cache/out.txt" || { tail -20 "$cache/out.txt" >&2; echo "$0: the benchmarks did not finish" >&2; exit 1; }

median() {  # the first "median X" after the marker @@$1 (and matching $2 if given)
    awk -v m="@@$1" -v f="${2:-}" '$0 == m {on = 1; next} /^@@/ {on = 0} on && index($0, f) && /median/ {
        for (i = 1; i < NF; i++) if ($i == "median") { print $(i + 1); exit } }' "$cache/out.txt"
}
zg=$(median zoom-glide); zp=$(median zoom-pixman); fg=$(median feed-glide); fi_=$(median feed-glide-inc)
zg2=$(median zoom-glide-2); fg2=$(median feed-glide-2)
fp=$(median feed-pixman); ms=$(median floor " memset "); mc=$(median floor " memcpy ")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "aarch64 (Cortex-A72 under qemu-system-aarch64 -icount shift=0, one CPU) at $size:"
echo "millions of instructions per frame (median), glide cross-built by Board/cross.sh (Swift $(sed -n 's/.*swiftlang-\([0-9.]*\).*/\1/p' "$("$root/Board/cross.sh" aarch64 sdk 2>/dev/null | tail -1)/aarch64/sysroot/.glide-complete")), peers gcc -O2"
printf '  %-40s %8s\n' "R2 zoom, glide, 1 thread" "$zg" "R2 zoom, pixman bilinear" "$zp" \
    "R2 zoom, glide, 2 bands in turn" "$zg2" \
    "R1 feed full, glide, 1 thread" "$fg" "R1 feed full, glide, 2 bands in turn" "$fg2" \
    "R1 feed incremental, glide, 1 thread" "$fi_" \
    "R1 feed full, pixman + cairo glyphs" "$fp" "memset of a frame" "$ms" "memcpy of a frame" "$mc"
echo "zoom / pixman:                  $(ratio "$zg" "$zp")   (x86_64 goal <= 1.0)"
echo "feed full / pixman + cairo:     $(ratio "$fg" "$fp")   (x86_64 goal <= 0.9)"
echo "feed full / memset:             $(ratio "$fg" "$ms")   (x86_64 goal <= 3)"
echo "feed incremental / memcpy:      $(ratio "$fi_" "$mc")   (x86_64 goal <= 1.3)"
# One CPU runs both bands of a frame one after the other, so a frame's count on two threads is
# the work of all its bands: against one thread's, what splitting a frame adds (the time ratio
# on a machine also has the cores contending for memory, which no count shows).
echo "work of 2 bands / 1 thread:     zoom $(ratio "$zg2" "$zg"), feed $(ratio "$fg2" "$fg")   (goal <= 1.1)"
