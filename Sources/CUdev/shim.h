#ifndef GLIDE_CUDEV_SHIM_H
#define GLIDE_CUDEV_SHIM_H
// libudev for Swift: the device monitor that announces display hotplug (LinuxDRM).
#include <libudev.h>
#endif
