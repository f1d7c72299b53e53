#ifndef GLIDE_CESPEAKNG_SHIM_H
#define GLIDE_CESPEAKNG_SHIM_H
// espeak-ng: speech synthesis for the screen reader. Its types and constants come from its
// header; its functions from libespeak-ng.so.1 loaded with dlopen at the first utterance
// (SharedLibraries' SharedLibrary), not linked: linked, it and the ~20 libraries it brings (PulseAudio's
// client, D-Bus, X11's) were loaded at every start, screen reader or not. Each function's type
// is taken from its declaration, so the two cannot differ.
#include <espeak-ng/speak_lib.h>

typedef __typeof__(&espeak_Initialize) GlideEspeakInitialize;
typedef __typeof__(&espeak_SetSynthCallback) GlideEspeakSetSynthCallback;
typedef __typeof__(&espeak_SetVoiceByName) GlideEspeakSetVoiceByName;
typedef __typeof__(&espeak_SetParameter) GlideEspeakSetParameter;
typedef __typeof__(&espeak_Synth) GlideEspeakSynth;
typedef __typeof__(&espeak_Synchronize) GlideEspeakSynchronize;
#endif
