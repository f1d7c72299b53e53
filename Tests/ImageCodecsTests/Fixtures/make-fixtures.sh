#!/bin/sh
# Regenerates the JPEG fixtures with TurboJPEG's encoder (libturbojpeg0-dev, gcc), and one with
# libjpeg's own API (libjpeg-dev), which takes any scan script.
# The decoder tests check colours against the values written here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/gen.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <turbojpeg.h>
static void save(const char *path, const unsigned char *rgb, int w, int h, int pf, int ss, int flags) {
    tjhandle t = tjInitCompress();
    unsigned char *out = NULL; unsigned long size = 0;
    if (tjCompress2(t, rgb, w, 0, h, pf, &out, &size, ss, 95, flags) != 0) { fprintf(stderr, "%s\n", tjGetErrorStr2(t)); exit(1); }
    FILE *f = fopen(path, "wb"); fwrite(out, 1, size, f); fclose(f);
    tjFree(out); tjDestroy(t);
}
int main(int argc, char **argv) {
    char path[4096];
    /* 32x16, 4:4:4: left half (220,40,40), right half (40,60,200). */
    unsigned char halves[32 * 16 * 3];
    for (int y = 0; y < 16; y++) for (int x = 0; x < 32; x++) {
        unsigned char *p = halves + (y * 32 + x) * 3;
        if (x < 16) { p[0] = 220; p[1] = 40; p[2] = 40; } else { p[0] = 40; p[1] = 60; p[2] = 200; }
    }
    snprintf(path, sizeof path, "%s/halves-444.jpg", argv[1]);
    save(path, halves, 32, 16, TJPF_RGB, TJSAMP_444, 0);
    /* 24x24 grey, progressive: value 10*x + 5 along x. */
    unsigned char grey[24 * 24];
    for (int y = 0; y < 24; y++) for (int x = 0; x < 24; x++) grey[y * 24 + x] = (unsigned char)(10 * x + 5);
    snprintf(path, sizeof path, "%s/grey-progressive.jpg", argv[1]);
    save(path, grey, 24, 24, TJPF_GRAY, TJSAMP_GRAY, TJFLAG_PROGRESSIVE);
    /* 64x48 smooth colour ramp, 4:2:0 (the common camera layout). */
    unsigned char ramp[64 * 48 * 3];
    for (int y = 0; y < 48; y++) for (int x = 0; x < 64; x++) {
        unsigned char *p = ramp + (y * 64 + x) * 3;
        p[0] = (unsigned char)(x * 4); p[1] = (unsigned char)(y * 5); p[2] = 128;
    }
    snprintf(path, sizeof path, "%s/ramp-420.jpg", argv[1]);
    save(path, ramp, 64, 48, TJPF_RGB, TJSAMP_420, 0);
    /* 32x16 CMYK as print workflows store it (Adobe's inverted form, 255 = no ink), in a YCCK
       JPEG: left half red (no cyan, full magenta and yellow, no black), right half 50% black. */
    unsigned char cmyk[32 * 16 * 4];
    for (int y = 0; y < 16; y++) for (int x = 0; x < 32; x++) {
        unsigned char *p = cmyk + (y * 32 + x) * 4;
        if (x < 16) { p[0] = 255; p[1] = 0; p[2] = 0; p[3] = 255; } else { p[0] = 255; p[1] = 255; p[2] = 255; p[3] = 128; }
    }
    snprintf(path, sizeof path, "%s/halves-cmyk.jpg", argv[1]);
    save(path, cmyk, 32, 16, TJPF_CMYK, TJSAMP_444, 0);
    return 0;
}
C
gcc -O2 -o "$tmp/gen" "$tmp/gen.c" $(pkg-config --cflags --libs libturbojpeg)
"$tmp/gen" "$here"
cat > "$tmp/scans.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
/* A 16x16 grey progressive JPEG with a long legal scan script: DC in two scans, then each of the
   63 AC coefficients in a scan of its own at Al 10 and ten refinements (695 scans). Decoders
   without a scan limit read it; TurboJPEG's TJFLAG_LIMITSCANS refuses it at scan 501. */
int main(int argc, char **argv) {
    struct jpeg_compress_struct c; struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e); jpeg_create_compress(&c);
    FILE *f = fopen(argv[1], "wb"); jpeg_stdio_dest(&c, f);
    c.image_width = 16; c.image_height = 16; c.input_components = 1; c.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&c); jpeg_set_quality(&c, 95, TRUE);
    int n = 2 + 63 * 11; jpeg_scan_info *s = calloc(n, sizeof *s); int i = 0;
    s[i].comps_in_scan = 1; s[i].Ss = 0; s[i].Se = 0; s[i].Ah = 0; s[i].Al = 1; i++;
    s[i].comps_in_scan = 1; s[i].Ss = 0; s[i].Se = 0; s[i].Ah = 1; s[i].Al = 0; i++;
    for (int k = 1; k < 64; k++) {
        s[i].comps_in_scan = 1; s[i].Ss = k; s[i].Se = k; s[i].Ah = 0; s[i].Al = 10; i++;
        for (int a = 10; a > 0; a--) { s[i].comps_in_scan = 1; s[i].Ss = k; s[i].Se = k; s[i].Ah = a; s[i].Al = a - 1; i++; }
    }
    c.scan_info = s; c.num_scans = n;
    jpeg_start_compress(&c, TRUE);
    JSAMPLE row[16]; JSAMPROW rows[1] = { row };
    while (c.next_scanline < 16) {
        for (int x = 0; x < 16; x++) row[x] = (JSAMPLE)(x * 13 + c.next_scanline * 7);
        jpeg_write_scanlines(&c, rows, 1);
    }
    jpeg_finish_compress(&c); fclose(f); jpeg_destroy_compress(&c);
    return 0;
}
C
gcc -O2 -o "$tmp/scans" "$tmp/scans.c" -ljpeg
"$tmp/scans" "$here/grey-695-scans.jpg"
