# What the example apps' checks share, sourced by Examples/NAME/check.sh from that folder.

# run_twice NAME CLOCK_VARIABLE: builds the app NAME in this folder as an app outside the Glide
# package would be built, then runs golden.jsonl headless at 800x480 twice: with its clock
# ticking into $ticking, and with CLOCK_VARIABLE=off into $still. Sets $bin.
run_twice() {
    local name=$1 clock=$2
    /usr/bin/python3 -c "import PIL" 2>/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pil >/dev/null
    swift build 2>&1 | grep -E "error|warning: unre|Compiling $name|Build complete" || true
    bin=$(swift build --show-bin-path)/$name
    [ -x "$bin" ] || { echo "$name: the build failed" >&2; exit 1; }
    ticking=$(mktemp -d "/tmp/$name.XXXXXX") still=$(mktemp -d "/tmp/$name-still.XXXXXX")
    "$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$ticking"
    env "$clock=off" "$bin" run --backend headless --size 800x480 --script golden.jsonl --out "$still"
}
