#ifndef GLIDE_CALSA_SHIM_H
#define GLIDE_CALSA_SHIM_H
// ALSA: the screen reader's speech on a board's sound card.
#include <alsa/asoundlib.h>
#endif
