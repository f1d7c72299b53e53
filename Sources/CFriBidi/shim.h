#include <fribidi.h>

/* FriBidi's paragraph types are macros Swift cannot import, so one paragraph's levels are
   resolved here. `direction`: 0 from the first strong character (rules P2, P3), 1 left to
   right, 2 right to left. `types` and `brackets` are scratch of `length` entries. Returns
   the paragraph's level (0 or 1), or -1 when FriBidi could not allocate. */
static inline int glide_bidi_levels(const FriBidiChar *text, FriBidiStrIndex length, int direction,
                                    FriBidiCharType *types, FriBidiBracketType *brackets,
                                    FriBidiLevel *levels) {
    fribidi_get_bidi_types(text, length, types);
    fribidi_get_bracket_types(text, length, types, brackets);
    FriBidiParType base = direction == 1 ? FRIBIDI_PAR_LTR : direction == 2 ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON;
    if (fribidi_get_par_embedding_levels_ex(types, brackets, length, &base, levels) == 0) return -1;
    return FRIBIDI_IS_RTL(base) ? 1 : 0;
}
