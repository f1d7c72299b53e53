#!/usr/bin/env bash
# Tests/Fuzz/run.sh SECONDS [TARGET...] [--keep]
#
# Builds glide-fuzz with libFuzzer, AddressSanitizer and coverage (release optimisation, in
# .build-fuzz), then runs each target (default: all) for SECONDS, starting from its kept corpus
# in Tests/Fuzz/Corpus/TARGET, which is replayed first. New interesting inputs go to
# .build-fuzz/corpus/TARGET; --keep merges them, minimised, into the kept corpus. A finding
# (crash, sanitizer report, broken invariant, timeout, memory blow-up) is written to
# Tests/Fuzz/Findings/ and fails the run: reproduce it with
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
[ ${#targets[@]} -gt 0 ] || targets=(script manifest config feel-csv png jpeg svg font text raster scroll touches typing tokens)

runtime=$(ls "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1)
[ -n "$runtime" ] || { echo "run.sh: libclang_rt.fuzzer_no_main not found next to swiftc" >&2; exit 2; }
swift build -c release --scratch-path .build-fuzz --product glide-fuzz \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp,indirect-calls \
    -Xswiftc -DGLIDE_FUZZ -Xlinker "$runtime" -Xlinker -lstdc++
fuzzer=.build-fuzz/release/glide-fuzz

mkdir -p Tests/Fuzz/Findings
failed=()
summary=()
for target in "${targets[@]}"; do
    kept=Tests/Fuzz/Corpus/$target
    [ -d "$kept" ] || { echo "run.sh: no corpus $kept (targets: $(ls Tests/Fuzz/Corpus | tr '\n' ' '))" >&2; exit 2; }
    fresh=.build-fuzz/corpus/$target
    mkdir -p "$fresh"
    log=.build-fuzz/$target.log
    echo "== $target: ${seconds}s"
    status=0
    # Fonts and seed images are larger than libFuzzer's default 4 KB input.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="Tests/Fuzz/Findings/$target-" ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
        "$fresh" "$kept" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    if [ $status -ne 0 ]; then
        failed+=("$target")
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 || true
        summary+=("$(printf '%-9s %10s executions  %6s edges  FINDING (see %s)' "$target" "${runs:-?}" "${coverage:-?}" "$log")")
    else
        summary+=("$(printf '%-9s %10s executions  %6s edges  no findings' "$target" "${runs:-?}" "${coverage:-?}")")
    fi
    if [ $keep -eq 1 ] && [ $status -eq 0 ]; then
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" "$target" -merge=1 -max_len=16384 "$kept" "$fresh" >"$log.merge" 2>&1
    fi
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "run.sh: findings in: ${failed[*]} (inputs in Tests/Fuzz/Findings/)" >&2
    exit 1
fi
