#include "CPNGRows.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const uint8_t *data;
    size_t size, offset;
    char *message;
    size_t message_size;
};

static void keep_message(struct reader *r, const char *text) {
    if (r->message_size == 0) return;
    strncpy(r->message, text ? text : "libpng error", r->message_size - 1);
    r->message[r->message_size - 1] = 0;
}

static void on_error(png_structp png, png_const_charp text) {
    keep_message(png_get_error_ptr(png), text);
    png_longjmp(png, 1);
}

/// Warnings (a bad ancillary chunk) do not stop the picture, as in the simplified API.
static void on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static void read_bytes(png_structp png, png_bytep out, size_t count) {
    struct reader *r = png_get_io_ptr(png);
    if (count > r->size - r->offset) png_error(png, "read beyond end of data");
    memcpy(out, r->data + r->offset, count);
    r->offset += count;
}

int glide_png_read_rows(const uint8_t *data, size_t size, glide_png_begin_fn begin, glide_png_row_fn row,
                        void *context, char *message, size_t message_size) {
    struct reader r = { data, size, 0, message, message_size };
    if (message_size > 0) message[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, on_error, on_warning);
    if (!png) { keep_message(&r, "out of memory"); return GLIDE_PNG_FAILED; }
    png_infop info = png_create_info_struct(png);
    // Locals changed after setjmp and read after a longjmp must be volatile.
    uint32_t *volatile buffer = NULL;
    volatile int status = GLIDE_PNG_FAILED;
    if (!info) { keep_message(&r, "out of memory"); goto done; }
    if (setjmp(png_jmpbuf(png))) goto done;

    png_set_read_fn(png, &r, read_bytes);
#ifdef PNG_IGNORE_ADLER32
    // zlib's Adler-32 of the image data was a tenth of a photo's decode. Every IDAT chunk's
    // CRC, still checked, covers the same bytes, so damaged data is still an error.
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, info);
    png_uint_32 width, height;
    int depth, type, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &type, &interlace, NULL, NULL);
    if (interlace != PNG_INTERLACE_NONE) { status = GLIDE_PNG_INTERLACED; goto done; }
    int opaque = !(type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS);
    if (begin(context, width, height, opaque) != 0) { status = GLIDE_PNG_REFUSED; goto done; }

    png_set_expand(png);
    // As the simplified API: a file without gamma is taken as linear if it has 16 bits and as
    // sRGB otherwise (the first call sets that default), and is written out as sRGB with
    // straight alpha (the second).
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, depth == 16 ? PNG_GAMMA_LINEAR : PNG_DEFAULT_sRGB);
    if (depth == 16) png_set_scale_16(png);
    if (!(type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    png_set_bgr(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size after conversion");

    buffer = malloc((size_t)width * 4);
    if (!buffer) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) {
        png_read_row(png, (png_bytep)buffer, NULL);
        row(context, buffer);
    }
    status = GLIDE_PNG_DONE;
done:
    free(buffer);
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    return status;
}
