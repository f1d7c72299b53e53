// The part of librsvg's and cairo's C API that Glide calls (librsvg 2.52 or later, Debian's
// librsvg2-2), as function pointer types: librsvg and the ~45 libraries it brings (cairo,
// glib, gdk-pixbuf, pango...) are loaded with dlopen when the first SVG picture is drawn, not
// at every start (linked, they cost each exec about 6 ms on a desktop CPU), and a board
// without them still runs, refusing SVG with a clear message.
#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t domain; int32_t code; char *message; } GlideGError;
typedef struct { double x; double y; double width; double height; } GlideRsvgRectangle;
typedef struct { double length; int32_t unit; } GlideRsvgLength;

typedef void *(*GlideRsvgNewFromData)(const uint8_t *data, size_t length, GlideGError **error);
typedef int32_t (*GlideRsvgIntrinsicSizeInPixels)(void *handle, double *width, double *height);
typedef void (*GlideRsvgIntrinsicDimensions)(void *handle, int32_t *hasWidth, GlideRsvgLength *width, int32_t *hasHeight,
                                             GlideRsvgLength *height, int32_t *hasViewBox, GlideRsvgRectangle *viewBox);
typedef int32_t (*GlideRsvgRenderDocument)(void *handle, void *cairo, const GlideRsvgRectangle *viewport, GlideGError **error);
typedef void (*GlideObjectUnref)(void *object);
typedef void (*GlideErrorFree)(GlideGError *error);
/// cairo_image_surface_create_for_data with CAIRO_FORMAT_ARGB32 (0): premultiplied 0xAARRGGBB.
typedef void *(*GlideCairoSurfaceForData)(unsigned char *data, int32_t format, int32_t width, int32_t height, int32_t stride);
typedef void *(*GlideCairoCreate)(void *surface);
typedef void (*GlideCairoRelease)(void *object);

// libxml2's reader (librsvg's own parser, loaded with it): an SVG's filter primitives are read
// with it to bound their cost before librsvg renders them.
typedef void *(*GlideXmlReaderForMemory)(const char *buffer, int32_t size, const char *url, const char *encoding, int32_t options);
typedef int32_t (*GlideXmlReaderStep)(void *reader);
typedef const uint8_t *(*GlideXmlReaderText)(void *reader);
typedef int32_t (*GlideXmlReaderMoveToAttribute)(void *reader, const uint8_t *name);
typedef void (*GlideXmlFreeTextReader)(void *reader);
typedef void (*GlideXmlInitParser)(void);
