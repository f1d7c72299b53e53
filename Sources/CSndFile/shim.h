#ifndef GLIDE_CSNDFILE_SHIM_H
#define GLIDE_CSNDFILE_SHIM_H
// libsndfile: the headless run's speech.wav.
#include <sndfile.h>
#endif
