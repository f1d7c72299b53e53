#ifndef GLIDE_CDRM_SHIM_H
#define GLIDE_CDRM_SHIM_H
// libdrm for Swift. The fourcc and version macros are function-like or cast-laden and do not
// import; they are re-exported here as typed constants (STYLE S3).
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const int CDRM_EVENT_CONTEXT_VERSION = 2;
static const uint32_t CDRM_MODE_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
static const uint32_t CDRM_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;

#endif
