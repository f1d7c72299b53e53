#ifndef GLIDE_CLINUX_SHIM_H
#define GLIDE_CLINUX_SHIM_H
// C library functions that Swift's Glibc module leaves out: eventfd wakes a sleeping frame loop
// from another thread (Window.post); wmemset fills 32-bit pixels with libc's widest stores
// (Raster's fillSpan).
#include <sys/eventfd.h>
#include <wchar.h>
#endif
