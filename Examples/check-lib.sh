# What the example apps' checks share, sourced by Examples/NAME/check.sh from that folder.

# run_twice NAME CLOCK_VARIABLE: builds the app NAME in this folder as an app outside the Glide
# package would be built, then runs golden.jsonl headless at 800x480 twice: with its clock
# ticking into $ticking, and with CLOCK_VARIABLE=off into $still. Sets $bin.
# EXAMPLES_SCRATCH names a build folder to build in instead of .build, SHARED_BUILD_FLAGS the
# flags of the build there: CI passes its one build of Glide (the board's, .build-board), where
# every module the example shares with Glide is already compiled with the same flags, so that
# only the example is compiled (seconds instead of minutes).
. "$(dirname "${BASH_SOURCE[0]}")/../Board/size-flags.sh"   # stable_env
run_twice() {
    local name=$1 clock=$2 shared
    local scratch=(${EXAMPLES_SCRATCH:+--scratch-path "$EXAMPLES_SCRATCH"})
    read -r -a shared <<< "${SHARED_BUILD_FLAGS:-}"
    scratch+=("${shared[@]}")
    /usr/bin/python3 -c "import PIL" 2>/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pil >/dev/null
    stable_env swift build "${scratch[@]}" 2>&1 | grep -E "error|warning: unre|Compiling $name|Build complete" || true
    bin=$(stable_env swift build "${scratch[@]}" --show-bin-path)/$name
    [ -x "$bin" ] || { echo "$name: the build failed" >&2; exit 1; }
    ticking=$(mktemp -d "/tmp/$name.XXXXXX") still=$(mktemp -d "/tmp/$name-still.XXXXXX")
    "$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$ticking"
    env "$clock=off" "$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$still"
}
