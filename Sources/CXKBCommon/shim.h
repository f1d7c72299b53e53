#ifndef GLIDE_CXKBCOMMON_SHIM_H
#define GLIDE_CXKBCOMMON_SHIM_H
// libxkbcommon: keymaps from xkeyboard-config, and compose (dead keys) from the X11 locale data.
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>
#endif
