#!/bin/sh
# Glide vs pixman on the reference scenes, interleaved in one run (only same-run ratios mean
# anything): R2 zoom (../shared/bench/zoom-scene.md) on one thread and on the default threads
# against pixman's bilinear scaling, R1 feed full redraw against pixman with cairo's glyphs, and
# both against a memset / memcpy of the frame (the floor). Also checks that Glide's R2 frame
# matches pixman's (mean channel difference <= 1), and times the catalog's own pinch on its
# photo (`glide run --timing`, a two-finger script) against the zoom benchmark. Ends with the
# scaling rows: each scene on 1, 2, 4, ... threads up to the cores, and the CPU time all of a
# frame's bands take against one thread's.
#
# Needs: gcc, make, pkg-config, libpixman-1-dev, libcairo2-dev, libfreetype-dev, fonts-dejavu-core.
# Usage: Tests/Peers/pixman/compare.sh [--size WxH] [--runs N] [--peers DIR]
#        (DIR: the peers' sources, default ../shared/bench/peers beside the checkout)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
size=1920x1080
runs=3
peers="$root/../shared/bench/peers"
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --peers) peers=$2; shift 2 ;;
        *) echo "usage: $0 [--size WxH] [--runs N] [--peers DIR]" >&2; exit 2 ;;
    esac
done
[ -f "$peers/zoom_pixman.c" ] || { echo "$0: no peer sources in $peers (pass --peers DIR)" >&2; exit 2; }
W=${size%x*}; H=${size#*x}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building the peers (make -C $peers OUT=$work)..." >&2
make -s -C "$peers" OUT="$work" >&2
echo "building glide (swift build -c release --product glide)..." >&2
(cd "$root" && swift build -c release --product glide >&2)
glide="$(cd "$root" && swift build -c release --show-bin-path)/glide"
photo="$root/Board/content/images/zoom.png"
threads=$(nproc); [ "$threads" -gt 4 ] && threads=4

median_of() { sed -n 's/.*median \([0-9.]*\) .*/\1/p' | head -n 1; }
p90_of() { sed -n 's/.*p90 \([0-9.]*\) .*/\1/p' | head -n 1; }

# The catalog's pinch: open the photo tab, two fingers spread apart from the middle of the
# content area for a second (8 ms steps) and close halfway, then lift.
"$glide" run --size "$size" --out "$work/layout" < /dev/null > /dev/null
python3 - "$work/layout/final.json" > "$work/pinch.jsonl" <<'PY'
import json, sys
state = json.load(open(sys.argv[1]))
tab = next(e["frame"] for e in state["elements"] if e["id"] == "tab-photo")
area = next(s["frame"] for s in state["scrollViews"] if s["id"] == "feed")
cx, cy = area[0] + area[2] / 2, area[1] + area[3] / 2
t = 0
def touch(phase, finger, x, y):
    print(json.dumps({"t": t, "touch": phase, "id": finger, "x": round(x), "y": round(y)}))
touch("down", 0, tab[0] + tab[2] / 2, tab[1] + tab[3] / 2); t += 50
touch("up", 0, tab[0] + tab[2] / 2, tab[1] + tab[3] / 2); t += 400
spread = [50 + 300 * i / 125 for i in range(126)] + [350 - 150 * i / 62 for i in range(1, 63)]
touch("down", 0, cx - spread[0], cy); touch("down", 1, cx + spread[0], cy)
for d in spread[1:]:
    t += 8
    touch("move", 0, cx - d, cy); touch("move", 1, cx + d, cy)
t += 8
touch("up", 0, cx - spread[-1], cy); touch("up", 1, cx + spread[-1], cy)
PY
pinch() { "$glide" run --size "$size" --script "$work/pinch.jsonl" --out "$work/pinch" --timing --render-threads "$1" | p90_of; }

# Scaling: each scene on 1, 2, 4, ... threads up to the cores (and the cores themselves; the
# rows against the peers use 1 and $threads of them, measured in the same runs), and
# the work a frame's bands cost together against one thread: the process's CPU time for many
# frames less its CPU time for a few, so that the scene's setup and the warm-up drop out.
counts=1; n=2
while [ "$n" -le "$(nproc)" ]; do counts="$counts $n"; n=$((n * 2)); done
case " $counts " in *" $(nproc) "*) ;; *) counts="$counts $(nproc)" ;; esac
cpu_seconds() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN); print(r.ru_utime + r.ru_stime)' "$@"; }

i=1
while [ "$i" -le "$runs" ]; do
    for k in $counts; do
        "$glide" bench zoom --size "$size" --threads "$k" > "$work/out"; median_of < "$work/out" >> "$work/scale-zoom-$k"
        "$glide" bench feed --size "$size" --threads "$k" > "$work/out"; median_of < "$work/out" >> "$work/scale-feed-$k"
        "$glide" bench feed --size "$size" --threads "$k" --incremental > "$work/out"; median_of < "$work/out" >> "$work/scale-inc-$k"
        many=$(cpu_seconds "$glide" bench feed --size "$size" --threads "$k" --frames 1000)
        few=$(cpu_seconds "$glide" bench feed --size "$size" --threads "$k" --frames 100)
        echo "$many $few" | awk '{ print $1 - $2 }' >> "$work/cpu-feed-$k"
        many=$(cpu_seconds "$glide" bench zoom --size "$size" --threads "$k" --frames 300)
        few=$(cpu_seconds "$glide" bench zoom --size "$size" --threads "$k" --frames 30)
        echo "$many $few" | awk '{ print $1 - $2 }' >> "$work/cpu-zoom-$k"
    done
    "$work/zoom_pixman" "$photo" "$W" "$H" 120 > "$work/out"; median_of < "$work/out" >> "$work/zoom-pixman"
    pinch 1 >> "$work/pinch-1"
    pinch "$threads" >> "$work/pinch-n"
    "$work/feed_pixman" -W "$W" -H "$H" > "$work/out"; median_of < "$work/out" >> "$work/feed-pixman"
    "$work/floor" -W "$W" -H "$H" > "$work/out"
    grep ' memset ' "$work/out" | median_of >> "$work/memset"
    grep ' memcpy ' "$work/out" | median_of >> "$work/memcpy"
    i=$((i + 1))
done

# The same frame from both (frame 60 of 120: zoom 2.5).
"$glide" bench zoom --size "$size" --frames 120 --warmup 0 --png-frame 60 --png "$work/glide.png" > /dev/null
"$work/zoom_pixman" "$photo" "$W" "$H" 120 60 "$work/pixman.png" > /dev/null
difference=$(python3 - "$work/glide.png" "$work/pixman.png" <<'PY'
import sys, zlib, struct
def rgb(path):
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b"IHDR": w, h, depth, ctype = struct.unpack(">IIBB", body[:10]); bpp = {2: 3, 6: 4}[ctype]
        elif kind == b"IDAT": idat += body
    raw, rows, prev, i = zlib.decompress(idat), [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + w * bpp]); i += 1 + w * bpp
        for x in range(len(line)):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line[k] for k in range(len(line)) if k % bpp < 3)); prev = line
    return b"".join(rows)
a, b = rgb(sys.argv[1]), rgb(sys.argv[2])
print("%.3f" % (sum(abs(x - y) for x, y in zip(a, b)) / len(a)))
PY
)

# Median of the run medians, and their range, as "median min max".
summary() { sort -n "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f", m, v[1], v[NR] }'; }
med() { summary "$1" | cut -d' ' -f1; }
# Ratios pair by pair: run i of one against run i of the other, measured seconds apart, so a
# ratio holds when the shared machine's speed drifts between runs; the median of the runs'
# ratios, then their range.
ratio() {
    paste "$1" "$2" | awk '{ print $1 / $2 }' | sort -n |
        awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2fx (%.2f-%.2f)", m, v[1], v[NR] }'
}
row() { set -- "$1" "$2" $(summary "$2"); printf "%-34s %8s ms (%s-%s)\n" "$1" "$3" "$4" "$5"; }

cpu=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
echo "reference scenes at $size, $runs interleaved runs (median of run medians, run range)"
echo "machine: $cpu, $(nproc) CPUs; glide: swift build -c release; peers: gcc -O2, pixman $(pkg-config --modversion pixman-1)"
row "R2 zoom, glide, 1 thread" "$work/scale-zoom-1"
row "R2 zoom, glide, $threads threads" "$work/scale-zoom-$threads"
row "R2 zoom, pixman bilinear" "$work/zoom-pixman"
row "R1 feed full, glide, 1 thread" "$work/scale-feed-1"
row "R1 feed full, glide, $threads threads" "$work/scale-feed-$threads"
row "R1 feed incremental, glide, 1 thr." "$work/scale-inc-1"
row "R1 feed full, pixman + cairo glyphs" "$work/feed-pixman"
row "memset of a frame" "$work/memset"
row "memcpy of a frame" "$work/memcpy"
row "catalog pinch p90, 1 thread" "$work/pinch-1"
row "catalog pinch p90, $threads threads" "$work/pinch-n"
echo "zoom, 1 thread / pixman:        $(ratio "$work/scale-zoom-1" "$work/zoom-pixman")   (goal <= 1.0x)"
echo "zoom, $threads threads / pixman:       $(ratio "$work/scale-zoom-$threads" "$work/zoom-pixman")   (goal <= 0.6x)"
echo "feed full / pixman:             $(ratio "$work/scale-feed-1" "$work/feed-pixman")   (goal <= 0.9x)"
echo "feed full / memset:             $(ratio "$work/scale-feed-1" "$work/memset")   (goal <= 3x)"
echo "feed incremental / memcpy:      $(ratio "$work/scale-inc-1" "$work/memcpy")   (goal <= 1.3x)"
echo "zoom, 1 / $threads threads (speedup):     $(ratio "$work/scale-zoom-1" "$work/scale-zoom-$threads")"
echo "feed full, 1 / $threads threads (speedup): $(ratio "$work/scale-feed-1" "$work/scale-feed-$threads")"
echo "pinch p90 / zoom median, 1 thread:   $(ratio "$work/pinch-1" "$work/scale-zoom-1")   (goal <= 2x)"
echo "pinch p90 / zoom median, $threads threads:  $(ratio "$work/pinch-n" "$work/scale-zoom-$threads")   (goal <= 2x)"
echo "R2 frame 60, glide vs pixman: mean channel difference $difference (goal <= 1)"
echo
echo "scaling at $size: ms per frame (median of run medians), speed-up over 1 thread, CPU time over 1 thread"
printf "%-8s %-22s %-22s %-22s %-10s %-10s\n" threads "R2 zoom" "R1 feed full" "R1 feed incremental" "feed CPU" "zoom CPU"
for k in $counts; do
    printf "%-8s %-22s %-22s %-22s %-10s %-10s\n" "$k" \
        "$(med "$work/scale-zoom-$k") ($(ratio "$work/scale-zoom-1" "$work/scale-zoom-$k" | cut -d' ' -f1))" \
        "$(med "$work/scale-feed-$k") ($(ratio "$work/scale-feed-1" "$work/scale-feed-$k" | cut -d' ' -f1))" \
        "$(med "$work/scale-inc-$k") ($(ratio "$work/scale-inc-1" "$work/scale-inc-$k" | cut -d' ' -f1))" \
        "$(ratio "$work/cpu-feed-$k" "$work/cpu-feed-1" | cut -d' ' -f1)" "$(ratio "$work/cpu-zoom-$k" "$work/cpu-zoom-1" | cut -d' ' -f1)"
done
echo "(goals: no frame slower on more threads; CPU time at most 1.1x one thread's; the full feed at $threads threads at or under a 1-thread memset: $(ratio "$work/scale-feed-$threads" "$work/memset" | cut -d' ' -f1))"
