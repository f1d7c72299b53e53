#ifndef GLIDE_CPNGROWS_H
#define GLIDE_CPNGROWS_H

#include <stddef.h>
#include <stdint.h>

/// Called once the header is read, before any pixel memory: nonzero refuses the picture.
/// `opaque` is 1 when the file has no alpha channel and no transparent colour, so that every
/// row's alpha will be 255.
typedef int (*glide_png_begin_fn)(void *context, uint32_t width, uint32_t height, int opaque);
/// Called for each row in order: `width` pixels, 8-bit B,G,R,A bytes (straight alpha).
typedef void (*glide_png_row_fn)(void *context, uint32_t *row);

enum {
    GLIDE_PNG_DONE = 0,
    /// libpng stopped on an error; `message` says why.
    GLIDE_PNG_FAILED = 1,
    /// `begin` refused the picture.
    GLIDE_PNG_REFUSED = 2,
    /// Interlaced: its rows are not final until the last pass, so it cannot be streamed.
    GLIDE_PNG_INTERLACED = 3,
};

/// Decodes a PNG held in memory row by row, with libpng's own error handling (longjmp) kept
/// inside this C function: Swift frames are never on the stack when libpng jumps.
/// Every format is read as 8-bit BGRA with the same conversions as libpng's simplified API
/// (palette and grey expanded, transparency to alpha, 16 bits scaled, gamma to sRGB).
int glide_png_read_rows(const uint8_t *data, size_t size, glide_png_begin_fn begin, glide_png_row_fn row,
                        void *context, char *message, size_t message_size);

#endif
