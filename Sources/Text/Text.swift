// Module Text: fonts from the repository's `Fonts/`, glyphs from FreeType, shaping with
// HarfBuzz, line layout, and drawing glyph masks into a `PixelSpan` or a `Canvas`.
//
// Pieces, bottom up:
// - `FontLibrary` (one `FT_Library`, a fonts directory, one reused `hb_buffer_t`) loads
//   `FontFace`s (`FT_Face` + `hb_font_t`, freed in `deinit`). Bad fonts (missing, not a
//   regular file, empty, random bytes, truncated: checked against the sfnt table directory
//   before FreeType sees them, then the first, middle and last glyph are loaded) throw a
//   `FontError` that names the file and the reason.
// - `Font` = a fallback chain of faces at one pixel size with `TextOptions` (kerning,
//   ligatures, whole-pixel advances). Each character goes to the first face that has it
//   (`FT_Get_Char_Index`); runs of one face are shaped with `hb_shape`.
// - `LineBreaker`: break opportunities (spaces, hyphens, between CJK characters) with
//   kinsoku (no 。、」 small kana ー at a line start, no 「 at a line end).
// - `TextLayout`: greedy wrapping to a width, alignment, line spacing, `maxLines` with "…".
//   Glyph positions are final whole pixels.
// - `GlyphTable`: the glyph cache, one per (face, 26.6 size), an array indexed by glyph id;
//   FreeType renders each glyph once (default hinting, grey-scale, outlines only).
// - Drawing: per run of one face, entries read through buffer pointers; a branch-free
//   integer source-over blit, bit-identical to `Raster.blendSpan`.
//
// Measured (release, `swift test -c release`, 2-core x86-64 VM, 1280×800 buffer, DejaVu Sans
// 16 px, `.plain`, best of repeated loops; the range is over runs on a loaded machine):
// drawing a laid-out 43-character line 6.6-8.4 µs; laying one out (shape + break +
// position) 6.8-9 µs; 42 cached lines of the feed scene (titles at 22 px, bodies at 16 px)
// 0.19-0.28 ms. Lay text out once and draw the `TextLayout` every frame.
