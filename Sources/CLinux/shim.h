#ifndef GLIDE_CLINUX_SHIM_H
#define GLIDE_CLINUX_SHIM_H
// Linux system calls that Swift's Glibc module leaves out: eventfd wakes a sleeping frame loop
// from another thread (Window.post).
#include <sys/eventfd.h>
#endif
