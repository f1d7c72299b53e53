#ifndef GLIDE_CINPUT_SHIM_H
#define GLIDE_CINPUT_SHIM_H
// libinput and libudev (the udev seat backend) for Swift.
#include <libudev.h>
#include <libinput.h>
#endif
