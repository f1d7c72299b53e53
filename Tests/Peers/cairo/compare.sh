#!/bin/sh
# Glide vs cairo 1.16 (image backend) on the reference feed scene (benchmark R1,
# /work/shared/bench/feed-scene.md): builds both, runs them interleaved RUNS times (default 3)
# for full redraw and incremental, and prints the median of the run medians, the range of the
# run medians, and the ratio Glide/cairo. Only same-batch ratios are meaningful.
#
# Needs: gcc, pkg-config, libcairo2-dev, libfreetype-dev (cairo is needed only by this peer;
# building Glide does not need it).
# Usage: Tests/Peers/cairo/compare.sh [--size WxH] [--runs N]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
size=1280x800
runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *) echo "usage: $0 [--size WxH] [--runs N]" >&2; exit 2 ;;
    esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building cairo peer (gcc -O2)..." >&2
gcc -O2 -ffp-contract=off -o "$work/feed_cairo" "$here/feed_cairo.c" $(pkg-config --cflags --libs cairo freetype2) -lm
echo "building glide (swift build -c release --product glide)..." >&2
(cd "$root" && swift build -c release --product glide >&2)
glide="$(cd "$root" && swift build -c release --show-bin-path)/glide"
font="$root/Fonts/DejaVuSans.ttf"

median_of() { sed -n 's/.*median \([0-9.]*\) ms.*/\1/p'; }

for mode in full incremental; do
    flag=""
    [ "$mode" = incremental ] && flag="--incremental"
    : > "$work/glide.$mode"
    : > "$work/cairo.$mode"
    i=1
    while [ "$i" -le "$runs" ]; do
        "$glide" bench feed --size "$size" $flag | median_of >> "$work/glide.$mode"
        "$work/feed_cairo" --font "$font" --size "$size" $flag | median_of >> "$work/cairo.$mode"
        i=$((i + 1))
    done
done

# Median of the run medians, and their range, as "median min max".
summary() { sort -n "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f", m, v[1], v[NR] }'; }

cpu=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
echo "feed scene $size, frames 30-329 timed after 30 warm-up, $runs interleaved runs each"
echo "machine: $cpu, $(nproc) CPUs; glide: swift build -c release; cairo $(pkg-config --modversion cairo): gcc -O2"
printf "%-12s %-26s %-26s %s\n" mode "glide ms (run range)" "cairo ms (run range)" "glide/cairo"
for mode in full incremental; do
    set -- $(summary "$work/glide.$mode")
    g=$1; glo=$2; ghi=$3
    set -- $(summary "$work/cairo.$mode")
    c=$1; clo=$2; chi=$3
    ratio=$(awk -v g="$g" -v c="$c" 'BEGIN { printf "%.2f", g / c }')
    printf "%-12s %-26s %-26s %s\n" "$mode" "$g ($glo-$ghi)" "$c ($clo-$chi)" "$ratio"
done
