// librsvg (Debian's librsvg2-dev) renders SVG into a cairo image surface whose premultiplied
// ARGB32 pixels are Glide's own format.
#include <librsvg/rsvg.h>
#include <cairo.h>
