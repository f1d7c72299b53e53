#!/usr/bin/env bash
# Tests/Fuzz/run.sh SECONDS [TARGET...] [--keep]
#
# Builds glide-fuzz with libFuzzer, AddressSanitizer and coverage (unoptimised, in .build-fuzz),
# then runs each target (default: all) for SECONDS, two at a time (FUZZ_JOBS), starting from
# its kept corpus in Tests/Fuzz/Corpus/TARGET, which is replayed first. New interesting inputs go
# to .build-fuzz/corpus/TARGET; --keep merges them, minimised, into the kept corpus. A finding (crash, sanitizer report, broken invariant, timeout, memory blow-up)
# is written to Tests/Fuzz/Findings/ and fails the run: reproduce it with
#   swift run glide-fuzz TARGET Tests/Fuzz/Findings/FILE
# and, once fixed, move it into Tests/Fuzz/Corpus/TARGET so it stays a regression input.
# FUZZ_SEED=N fixes libFuzzer's random seed (CI does, so a run explores what a local run with the
# same seed explored first, instead of failing at random on a new finding).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:?usage: Tests/Fuzz/run.sh SECONDS [TARGET...] [--keep]}
shift
case $seconds in ''|*[!0-9]*) echo "run.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2;; esac
keep=0
targets=()
for arg in "$@"; do
    if [ "$arg" = --keep ]; then keep=1; else targets+=("$arg"); fi
done
# The default order starts the longest replays first (typing, raster), for the runs two at a time.
[ ${#targets[@]} -gt 0 ] || targets=(typing raster feel-csv text touches script manifest config png jpeg svg font scroll tokens)

runtime=$(ls "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1)
[ -n "$runtime" ] || { echo "run.sh: libclang_rt.fuzzer_no_main not found next to swiftc" >&2; exit 2; }
# Unoptimised but for Raster's kernels (Package.swift optimises them in every build): 52 s
# against 91 for the optimised build on a quiet 2-core machine. Replaying the corpora is then
# 1.2-4 times slower (typing's 16 inputs 4.4 s against 1.9, raster's 1,397 2.4 s against 2.0),
# far from the 10 s a single input may take.
swift build -c debug --scratch-path .build-fuzz --product glide-fuzz \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp,indirect-calls \
    -Xswiftc -DGLIDE_FUZZ -Xlinker "$runtime" -Xlinker -lstdc++
fuzzer=.build-fuzz/debug/glide-fuzz

mkdir -p Tests/Fuzz/Findings
# One target: its run, then its summary line in .build-fuzz/TARGET.summary (FINDING when it failed).
fuzz_one() {
    local target=$1 kept=Tests/Fuzz/Corpus/$1 fresh=.build-fuzz/corpus/$1 log=.build-fuzz/$1.log status=0 runs coverage verdict
    mkdir -p "$fresh"
    # Fonts and seed images are larger than libFuzzer's default 4 KB input.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="Tests/Fuzz/Findings/$target-" ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
        "$fresh" "$kept" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
    verdict="no findings"
    if [ $status -ne 0 ]; then
        verdict="FINDING (see $log)"
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 || true
    elif [ $keep -eq 1 ]; then
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" "$target" -merge=1 -max_len=16384 "$kept" "$fresh" >"$log.merge" 2>&1
    fi
    printf '%-9s %10s executions  %6s edges  %s\n' "$target" "${runs:-?}" "${coverage:-?}" "$verdict" > ".build-fuzz/$target.summary"
}
for target in "${targets[@]}"; do
    [ -d "Tests/Fuzz/Corpus/$target" ] || { echo "run.sh: no corpus Tests/Fuzz/Corpus/$target (targets: $(ls Tests/Fuzz/Corpus | tr '\n' ' '))" >&2; exit 2; }
done
# Two targets at a time (FUZZ_JOBS), one a core: each run is one process on one thread.
parallel=${FUZZ_JOBS:-2}
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    echo "== $target: ${seconds}s"
    rm -f ".build-fuzz/$target.summary"
    fuzz_one "$target" &
done
wait
failed=()
for target in "${targets[@]}"; do
    cat ".build-fuzz/$target.summary" 2>/dev/null || echo "$target: no summary (its run was cut short)"
    grep -q "no findings" ".build-fuzz/$target.summary" 2>/dev/null || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "run.sh: findings in: ${failed[*]} (inputs in Tests/Fuzz/Findings/)" >&2
    exit 1
fi
