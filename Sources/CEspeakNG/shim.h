#ifndef GLIDE_CESPEAKNG_SHIM_H
#define GLIDE_CESPEAKNG_SHIM_H
// espeak-ng: speech synthesis for the screen reader.
#include <espeak-ng/speak_lib.h>
#endif
