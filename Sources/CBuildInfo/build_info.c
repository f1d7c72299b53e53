#include "build_info.h"

// Package.swift defines GLIDE_COMMIT for this file alone from the environment, so a new commit
// recompiles one C file and relinks, not the package.
#ifndef GLIDE_COMMIT
#define GLIDE_COMMIT "unknown"
#endif

const char *glide_build_commit(void) { return GLIDE_COMMIT; }
