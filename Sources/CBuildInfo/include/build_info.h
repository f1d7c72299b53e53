#ifndef GLIDE_BUILD_INFO_H
#define GLIDE_BUILD_INFO_H

/// The commit Glide was built from (`git rev-parse --short=12 HEAD`), or "unknown" for a build
/// made without GLIDE_COMMIT in the environment (a developer's `swift build`).
const char *glide_build_commit(void);

#endif
