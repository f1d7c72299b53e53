# shellcheck shell=bash
# The compile flags of every board build: glide, an app (Board/app-build.sh), aarch64 and its
# tests (Board/cross.sh). They are the same everywhere, so that a build folder shared by two of
# them compiles each module once. Each function and datum in a section of its own, which the
# release link's --gc-sections drops when nothing reaches it: glide's stripped binary 30.26 ->
# 28.71 MB on x86_64 (issue 64), the same pixels and states.
BOARD_SIZE_FLAGS=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections)
