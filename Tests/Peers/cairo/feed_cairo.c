/*
 * The reference "feed" scene (/work/shared/bench/feed-scene.md, benchmark R1) drawn with
 * cairo's image backend, as a peer for `glide bench feed`. Same scene, same timing
 * protocol, same output line, so that compare.sh can put the two side by side.
 *
 * Build: gcc -O2 -ffp-contract=off feed_cairo.c $(pkg-config --cflags --libs cairo freetype2) -lm
 * Usage: feed_cairo --font Fonts/DejaVuSans.ttf [--size WxH] [--frames N] [--warmup N]
 *                   [--incremental] [--png-frame F --png PATH]
 *
 * Text: DejaVu Sans through cairo_ft_font_face_create_for_ft_face with FreeType's default
 * hinting and grey anti-aliasing; one glyph per character (cmap, no shaping, no kerning,
 * no ligatures); pen advances are FreeType's hinted advances rounded to whole pixels and
 * glyph origins are whole pixels (cairo_show_glyphs with integer positions).
 */
#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CARD_COUNT = 200, CONTENT_HEIGHT = 24 + 136 * CARD_COUNT - 16 + 24 };

typedef struct {
    int advance[128];      /* whole-pixel advance per ASCII character */
    unsigned glyph[128];   /* glyph index per ASCII character */
    double size;
} Metrics;

typedef struct {
    int width, height;
    cairo_surface_t *surface;
    cairo_t *cr;
    cairo_font_face_t *face;
    Metrics title, body;
} Scene;

static const char *kLine1 = "The quick brown fox jumps over the lazy dog";
static const char *kLine2 = "Pack my box with five dozen liquor jugs.";

static void metrics_init(Metrics *m, FT_Face face, int pixels) {
    m->size = pixels;
    if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)pixels) != 0) { fprintf(stderr, "FT_Set_Pixel_Sizes failed\n"); exit(1); }
    for (int c = 0; c < 128; c++) {
        m->glyph[c] = FT_Get_Char_Index(face, (FT_ULong)c);
        m->advance[c] = 0;
        if (c >= 32 && FT_Load_Glyph(face, m->glyph[c], FT_LOAD_DEFAULT | FT_LOAD_NO_BITMAP) == 0)
            m->advance[c] = (int)((face->glyph->advance.x + 32) >> 6);
    }
}

/* HSV with h in degrees, s and v in 0...1, to 8-bit RGB rounded to nearest. */
static void hsv_to_rgb(double h, double s, double v, int rgb[3]) {
    double c = v * s, hp = h / 60.0;
    double x = c * (1.0 - fabs(fmod(hp, 2.0) - 1.0)), m = v - c;
    double r = 0, g = 0, b = 0;
    switch ((int)hp) {
    case 0: r = c; g = x; break;
    case 1: r = x; g = c; break;
    case 2: g = c; b = x; break;
    case 3: g = x; b = c; break;
    case 4: r = x; b = c; break;
    default: r = c; b = x; break;
    }
    rgb[0] = (int)lround((r + m) * 255.0);
    rgb[1] = (int)lround((g + m) * 255.0);
    rgb[2] = (int)lround((b + m) * 255.0);
}

static void set_rgb(cairo_t *cr, unsigned rgb, int alpha) {
    cairo_set_source_rgba(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0, (rgb & 0xFF) / 255.0, alpha / 255.0);
}

static void rounded_rect(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static void show_text(Scene *s, const Metrics *m, const char *text, int x, int y) {
    cairo_glyph_t glyphs[128];
    int n = 0, pen = x;
    for (const char *p = text; *p && n < 128; p++) {
        int c = (unsigned char)*p & 0x7F;
        glyphs[n].index = m->glyph[c];
        glyphs[n].x = pen;
        glyphs[n].y = y;
        pen += m->advance[c];
        n++;
    }
    cairo_set_font_size(s->cr, m->size);
    cairo_show_glyphs(s->cr, glyphs, n);
}

static double thumb_length(int H) {
    double l = (double)H * H / CONTENT_HEIGHT;
    return l > 36 ? l : 36;
}

/* Draws everything intersecting the device rectangle (cx, cy, cw, ch), which the caller has
 * set as the clip (or which is the whole canvas). */
static void draw_scene(Scene *s, int scrollY, int cx, int cy, int cw, int ch) {
    cairo_t *cr = s->cr;
    const int W = s->width, H = s->height;
    set_rgb(cr, 0xF2F2F7, 255);
    cairo_rectangle(cr, cx, cy, cw, ch);
    cairo_fill(cr);

    const int cardW = W - 48;
    int first = (scrollY - 24 - 120) / 136;
    if (first < 0) first = 0;
    for (int i = first; i < CARD_COUNT; i++) {
        int x = 24, y = 24 + 136 * i - scrollY;
        if (y >= H || y >= cy + ch) break;
        if (y + 120 <= 0 || y + 120 <= cy || x >= cx + cw || x + cardW <= cx) continue;
        set_rgb(cr, 0xD1D1D6, 255);
        rounded_rect(cr, x, y, cardW, 120, 14);
        cairo_fill(cr);
        set_rgb(cr, 0xFFFFFF, 255);
        rounded_rect(cr, x + 1, y + 1, cardW - 2, 118, 13);
        cairo_fill(cr);
        int rgb[3];
        hsv_to_rgb((double)((37 * i) % 360), 0.5, 0.9, rgb);
        cairo_set_source_rgb(cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
        cairo_new_sub_path(cr);
        cairo_arc(cr, x + 20 + 40, y + 20 + 40, 40, 0, 2 * M_PI);
        cairo_fill(cr);
        char title[32];
        snprintf(title, sizeof title, "Item %d", i);
        set_rgb(cr, 0x1C1C1E, 255);
        show_text(s, &s->title, title, x + 120, y + 48);
        set_rgb(cr, 0x3A3A3C, 255);
        show_text(s, &s->body, kLine1, x + 120, y + 80);
        show_text(s, &s->body, kLine2, x + 120, y + 104);
    }

    /* Scroll indicator: 5 wide, radius 2.5, black at 0.35, right edge 3 px from the right. */
    double length = thumb_length(H);
    double top = 3 + (H - 6 - length) * scrollY / (double)(CONTENT_HEIGHT - H);
    set_rgb(cr, 0x000000, 89);
    rounded_rect(cr, W - 8, top, 5, length, 2.5);
    cairo_fill(cr);

    /* Page control centred at (W/2, H-40). */
    double pcx = W / 2.0, pcy = H - 40.0;
    set_rgb(cr, 0x000000, 77);
    rounded_rect(cr, pcx - 64, pcy - 14, 128, 28, 14);
    cairo_fill(cr);
    for (int k = 0; k < 7; k++) {
        set_rgb(cr, 0xFFFFFF, k == 2 ? 255 : 115);
        cairo_new_sub_path(cr);
        cairo_arc(cr, pcx + 16 * (k - 3), pcy, 4, 0, 2 * M_PI);
        cairo_fill(cr);
    }
}

static int scroll_for_frame(int f, int H) { return (int)((37LL * f) % (CONTENT_HEIGHT - H)); }

static void draw_full(Scene *s, int scrollY) { draw_scene(s, scrollY, 0, 0, s->width, s->height); }

static void draw_clipped(Scene *s, int scrollY, int x, int y, int w, int h) {
    if (y < 0) { h += y; y = 0; }
    if (y + h > s->height) h = s->height - y;
    if (w <= 0 || h <= 0) return;
    cairo_save(s->cr);
    cairo_rectangle(s->cr, x, y, w, h);
    cairo_clip(s->cr);
    draw_scene(s, scrollY, x, y, w, h);
    cairo_restore(s->cr);
}

/* Reuses the previous frame: moves the pixels by the scroll delta, then redraws the newly
 * exposed strip, the page control (old place after the move, and new place) and the
 * scroll indicator's column. */
static void draw_incremental(Scene *s, int scrollY, int previousY) {
    const int W = s->width, H = s->height;
    int d = scrollY - previousY;
    if (d == 0) return;
    if (d >= H || -d >= H) { draw_full(s, scrollY); return; }
    cairo_surface_flush(s->surface);
    unsigned char *data = cairo_image_surface_get_data(s->surface);
    int stride = cairo_image_surface_get_stride(s->surface);
    if (d > 0) memmove(data, data + (size_t)d * stride, (size_t)(H - d) * stride);
    else memmove(data + (size_t)(-d) * stride, data, (size_t)(H + d) * stride);
    cairo_surface_mark_dirty(s->surface);
    if (d > 0) draw_clipped(s, scrollY, 0, H - d, W, d);
    else draw_clipped(s, scrollY, 0, 0, W, -d);
    int pcTop = H - 40 - 14;
    if (d > 0) draw_clipped(s, scrollY, W / 2 - 64, pcTop - d, 128, 28 + d);
    else draw_clipped(s, scrollY, W / 2 - 64, pcTop, 128, 28 - d);
    draw_clipped(s, scrollY, W - 8, 0, 5, H);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(void) {
    fprintf(stderr, "usage: feed_cairo --font PATH [--size WxH] [--frames N] [--warmup N] [--incremental] [--png-frame F --png PATH]\n");
    exit(2);
}

int main(int argc, char **argv) {
    int W = 1280, H = 800, frames = 300, warmup = 30, incremental = 0, pngFrame = -1;
    const char *font = NULL, *png = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) { if (sscanf(argv[++i], "%dx%d", &W, &H) != 2) usage(); }
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--incremental")) incremental = 1;
        else if (!strcmp(argv[i], "--png-frame") && i + 1 < argc) pngFrame = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--png") && i + 1 < argc) png = argv[++i];
        else if (!strcmp(argv[i], "--font") && i + 1 < argc) font = argv[++i];
        else usage();
    }
    if (!font || W < 200 || H < 100 || W > 8192 || H >= CONTENT_HEIGHT || frames < 0 || warmup < 0 || (png && pngFrame < 0)) usage();

    FT_Library library;
    FT_Face layoutFace, renderFace;
    if (FT_Init_FreeType(&library) || FT_New_Face(library, font, 0, &layoutFace) || FT_New_Face(library, font, 0, &renderFace)) {
        fprintf(stderr, "cannot load font %s\n", font);
        return 1;
    }
    Scene s = { .width = W, .height = H };
    metrics_init(&s.title, layoutFace, 22);
    metrics_init(&s.body, layoutFace, 16);
    s.surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    s.cr = cairo_create(s.surface);
    s.face = cairo_ft_font_face_create_for_ft_face(renderFace, FT_LOAD_DEFAULT | FT_LOAD_NO_BITMAP);
    cairo_set_font_face(s.cr, s.face);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_DEFAULT);
    cairo_set_font_options(s.cr, options);

    if (png) {
        if (incremental) {
            draw_full(&s, scroll_for_frame(0, H));
            for (int f = 1; f <= pngFrame; f++) draw_incremental(&s, scroll_for_frame(f, H), scroll_for_frame(f - 1, H));
        } else {
            draw_full(&s, scroll_for_frame(pngFrame, H));
        }
        cairo_surface_flush(s.surface);
        if (cairo_surface_write_to_png(s.surface, png) != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "cannot write %s\n", png); return 1; }
    }

    if (frames > 0) {
        double *times = malloc(sizeof(double) * (size_t)frames);
        for (int f = 0; f < warmup + frames; f++) {
            double t0 = now_ms();
            if (incremental && f > 0) draw_incremental(&s, scroll_for_frame(f, H), scroll_for_frame(f - 1, H));
            else draw_full(&s, scroll_for_frame(f, H));
            cairo_surface_flush(s.surface);
            double t1 = now_ms();
            if (f >= warmup) times[f - warmup] = t1 - t0;
        }
        qsort(times, (size_t)frames, sizeof(double), compare_doubles);
        double median = frames % 2 ? times[frames / 2] : (times[frames / 2 - 1] + times[frames / 2]) / 2;
        printf("feed %s %dx%d: median %.3f ms, min %.3f ms, max %.3f ms (%d frames after %d warm-up)\n",
               incremental ? "incremental" : "full", W, H, median, times[0], times[frames - 1], frames, warmup);
        free(times);
    }
    cairo_font_options_destroy(options);
    cairo_destroy(s.cr);
    cairo_surface_destroy(s.surface);
    cairo_font_face_destroy(s.face);
    return 0;
}
