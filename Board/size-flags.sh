# shellcheck shell=bash
# The compile flags of every board build: glide, an app (Board/app-build.sh), aarch64 and its
# tests (Board/cross.sh). They are the same everywhere, so that a build folder shared by two of
# them compiles each module once. Each function and datum in a section of its own, which the
# release link's --gc-sections drops when nothing reaches it: glide's stripped binary 30.26 ->
# 28.71 MB on x86_64 (issue 64), the same pixels and states. The link then folds functions whose
# code is the same (--icf=all; generic specializations, thunks and accessors are often twins):
# 28.82 -> 26.67 MB on x86_64, the demo's 42 screenshots and states the same bytes. It is safe
# for code that never compares two functions' addresses, which Swift code cannot do; BoringSSL
# is linked so in Chromium. A backtrace may name a folded function's twin. It changes no
# compile command, so it shares the build folder too. No debug information: the board's binary
# is stripped, and -g slowed the compile (four of BoringSSL's files: 45.2 s with it, 38.5 s
# without, timed beside another build). C and C++ (BoringSSL above all) are optimised for size:
# BoringSSL's hot paths are its assembly, and -Os compiled bcm.cc and 20 other of its files in
# 22.7 s against 35.0 with SwiftPM's -O2, their objects 1.31 MB against 1.60.
BOARD_SIZE_FLAGS=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections
    -Xlinker --icf=all -debug-info-format none -Xcc -Os)

# Every board build says which commit it is (`glide --version`); Package.swift hands it to one C
# file, so a new commit relinks and recompiles nothing else.
GLIDE_COMMIT=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
export GLIDE_COMMIT

# stable_env COMMAND...: runs a build in an environment of what a build reads (the tools' paths,
# locale, proxies, pkg-config, git, SwiftPM, and the GLIDE_ variables Package.swift reads) and
# nothing of the scripts around it. SwiftPM plans a build again (15-30 s for Glide's graph) when
# any variable differs from the last build's in that folder, as a manifest may read any: CI builds
# Departures in one folder from three scripts (its example check, the virtual board's and the
# image's app builds), each of them planning again where a build with nothing to do takes 3 s.
# Every board build in a shared folder runs through it (app-build.sh, deb.sh, vboard.sh).
stable_env() {
    local name keep=()
    for name in $(compgen -e); do
        case $name in
            GLIDE_BIN|GLIDE_BIN_PATH) ;;
            PATH|HOME|USER|LOGNAME|LANG|LC_*|TMPDIR|TERM|CI|LD_LIBRARY_PATH|PKG_CONFIG_*|SWIFT_*|SWIFTPM_*|XDG_*|GIT_*|SSL_CERT_*|*_proxy|*_PROXY|GLIDE_*)
                keep+=("$name=${!name}") ;;
        esac
    done
    env -i "${keep[@]}" "$@"
}

# GLIDE_TESTABLE=FOLDER (CI): board builds build the suites too, in the same folder with the
# same flags (Package.swift gives Glide's modules -enable-testing). Every compile is then handed
# FOLDER's Testing and XCTest modules, which a static build does not find (it looks beside the
# static runtime), on the command line: SwiftPM's own test discovery module needs them too.
if [ -n "${GLIDE_TESTABLE:-}" ]; then
    BOARD_SIZE_FLAGS+=(-Xswiftc -I -Xswiftc "$GLIDE_TESTABLE/modules")
fi
# testable_folder RUNTIME FOLDER makes that FOLDER: links to the modules in the shared runtime's
# folder RUNTIME, and for the test runner's dynamic link, empty archives of the three libraries
# that static objects name for autolinking and whose code the shared Foundation holds.
testable_folder() {
    local runtime=$1 folder=$2 module lib
    [ -e "$folder/stubs/libCoreFoundation.a" ] && return 0
    mkdir -p "$folder/modules" "$folder/stubs"
    for module in Testing.swiftmodule Testing.swiftcrossimport XCTest.swiftmodule _Testing_Foundation.swiftmodule; do
        ln -sfn "$runtime/$module" "$folder/modules/$module"
    done
    for lib in _FoundationCShims _FoundationCollections CoreFoundation; do
        rm -f "$folder/stubs/lib$lib.a"; ar rc "$folder/stubs/lib$lib.a"
    done
}
