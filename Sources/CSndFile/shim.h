#ifndef GLIDE_CSNDFILE_SHIM_H
#define GLIDE_CSNDFILE_SHIM_H
// libsndfile: the headless run's speech.wav. Loaded with dlopen when a track is first written
// or read (SharedLibraries' SharedLibrary), not linked: it brings the codecs of FLAC, Vorbis,
// Opus and MP3 (seven libraries) that a kiosk's start does not need.
#include <sndfile.h>

typedef __typeof__(&sf_open) GlideSfOpen;
typedef __typeof__(&sf_open_fd) GlideSfOpenFd;
typedef __typeof__(&sf_close) GlideSfClose;
typedef __typeof__(&sf_strerror) GlideSfStrerror;
typedef __typeof__(&sf_write_short) GlideSfWriteShort;
typedef __typeof__(&sf_read_short) GlideSfReadShort;
typedef __typeof__(&sf_command) GlideSfCommand;
#endif
