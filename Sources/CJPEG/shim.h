#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H
// The TurboJPEG API: errors come back as return values and messages (libjpeg's
// setjmp/longjmp stays inside the C library), which is what Swift needs.
#include <turbojpeg.h>
#endif
