#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>

// Composite format macros (`(A|B)`) do not import into Swift; re-export them typed.
static const png_uint_32 CPNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const png_uint_32 CPNG_FORMAT_BGRA = PNG_FORMAT_BGRA;
static const png_uint_32 CPNG_FORMAT_BGR = PNG_FORMAT_BGR;

/// True when the last simplified-API call failed (PNG_IMAGE_FAILED).
static inline int cpng_image_failed(const png_image *image) {
    return PNG_IMAGE_FAILED(*image);
}

/// An upper bound on the encoded size of `image` (PNG_IMAGE_PNG_SIZE_MAX), so that one
/// compression pass suffices.
static inline png_alloc_size_t cpng_image_png_size_max(const png_image *image) {
    return PNG_IMAGE_PNG_SIZE_MAX(*image);
}
#endif
