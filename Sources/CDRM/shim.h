#ifndef GLIDE_CDRM_SHIM_H
#define GLIDE_CDRM_SHIM_H
// libdrm for Swift. The fourcc and version macros are function-like or cast-laden and do not
// import; they are re-exported here as typed constants.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const int CDRM_EVENT_CONTEXT_VERSION = 2;
static const uint32_t CDRM_MODE_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
static const uint32_t CDRM_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;

// Atomic modesetting.
static const uint64_t CDRM_CLIENT_CAP_UNIVERSAL_PLANES = DRM_CLIENT_CAP_UNIVERSAL_PLANES;
static const uint64_t CDRM_CLIENT_CAP_ATOMIC = DRM_CLIENT_CAP_ATOMIC;
static const uint64_t CDRM_CLIENT_CAP_WRITEBACK_CONNECTORS = DRM_CLIENT_CAP_WRITEBACK_CONNECTORS;
static const uint32_t CDRM_MODE_ATOMIC_TEST_ONLY = DRM_MODE_ATOMIC_TEST_ONLY;
static const uint32_t CDRM_MODE_ATOMIC_NONBLOCK = DRM_MODE_ATOMIC_NONBLOCK;
static const uint32_t CDRM_MODE_ATOMIC_ALLOW_MODESET = DRM_MODE_ATOMIC_ALLOW_MODESET;
static const uint32_t CDRM_MODE_OBJECT_CRTC = DRM_MODE_OBJECT_CRTC;
static const uint32_t CDRM_MODE_OBJECT_CONNECTOR = DRM_MODE_OBJECT_CONNECTOR;
static const uint32_t CDRM_MODE_OBJECT_PLANE = DRM_MODE_OBJECT_PLANE;
static const uint64_t CDRM_PLANE_TYPE_PRIMARY = DRM_PLANE_TYPE_PRIMARY;
static const uint32_t CDRM_MODE_CONNECTOR_WRITEBACK = DRM_MODE_CONNECTOR_WRITEBACK;
static const uint64_t CDRM_MODE_DPMS_ON = DRM_MODE_DPMS_ON, CDRM_MODE_DPMS_OFF = DRM_MODE_DPMS_OFF;

// The console's virtual terminal (KD_GRAPHICS while glide owns the display). ioctl is variadic
// and does not import into Swift; these fix its argument types.
#include <linux/kd.h>
#include <sys/ioctl.h>
static const unsigned long CDRM_KDGETMODE = KDGETMODE, CDRM_KDSETMODE = KDSETMODE;
static const unsigned long CDRM_KDGKBMODE = KDGKBMODE, CDRM_KDSKBMODE = KDSKBMODE;
static const int CDRM_KD_GRAPHICS = KD_GRAPHICS, CDRM_K_OFF = K_OFF;
static inline int cdrm_tty_get(int fd, unsigned long request, int *value) { return ioctl(fd, request, value); }
static inline int cdrm_tty_set(int fd, unsigned long request, long value) { return ioctl(fd, request, value); }

#endif
