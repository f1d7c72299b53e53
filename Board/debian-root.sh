# Sourced by cross.sh, vboard.sh and Tests/Peers/pixman/aarch64.sh: Debian packages for another
# architecture, unpacked into a folder without running anything (no emulation needed).
#
#   debian_root DIR SUITE ARCH PACKAGES [RECIPE [HOOK]]
#
# PACKAGES is a comma-separated list; their dependencies come along. /bin, /sbin and /lib are made
# links into /usr as on a merged-/usr system (linker scripts and the dynamic loader name /lib/...).
# HOOK, a function, is called with the folder before it is complete (to add to it). The folder is
# made as DIR.tmp and moved into place only when complete, with a stamp holding the recipe
# (suite, architecture, packages and RECIPE); a folder without the same stamp is made again, so an
# interrupted run leaves nothing that a later one trusts. GLIDE_CROSS_MIRROR picks the mirror.
debian_root() {
    local dir=$1 suite=$2 arch=$3 packages=$4 recipe="$2 $3 $4 ${5:-}" hook=${6:-} d
    [ "$(cat "$dir/.glide-complete" 2>/dev/null)" = "$recipe" ] && return 0
    rm -rf "$dir" "$dir.tmp"
    mmdebstrap --variant=extract --architectures="$arch" --aptopt='Acquire::Check-Valid-Until "false"' \
        --include="$packages" "$suite" "$dir.tmp" "${GLIDE_CROSS_MIRROR:-http://deb.debian.org/debian}" > "$dir.log" 2>&1 || {
        tail -5 "$dir.log" >&2; echo "could not unpack $packages from Debian $suite for $arch (log: $dir.log)" >&2; return 1; }
    for d in bin sbin lib; do [ -e "$dir.tmp/$d" ] || ln -s usr/$d "$dir.tmp/$d"; done
    if [ -n "$hook" ]; then "$hook" "$dir.tmp" || return 1; fi
    echo "$recipe" > "$dir.tmp/.glide-complete"
    mv "$dir.tmp" "$dir"
}
