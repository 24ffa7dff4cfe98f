/* suggest.h - "did you mean": the one rule every stage uses to offer a
 * likely spelling of an unknown name (an option, a kernel, an attribute,
 * a dtype).  A suggestion must look like a typo of the name, so a list of
 * unrelated names offers nothing rather than a wrong guess. */
#ifndef KJIT_COMMON_SUGGEST_H
#define KJIT_COMMON_SUGGEST_H

/* Optimal string alignment distance (Levenshtein plus transpositions, so
 * "flaot32" is one edit from "float32"); names over 40 bytes are far. */
int suggest_distance(const char *a, const char *b);

/* The candidate to suggest for `name` among cands[0..n), or NULL:
 *  - one that differs from it only in case ("PI" -> "pi"), first;
 *  - else the nearest by suggest_distance, at most 1 edit for names of up
 *    to 4 characters and 2 beyond; the first of equally near ones.
 * Names under 3 characters get no other suggestion and are never offered
 * (one edit there makes an unrelated name: "s" for "sum"); NULL entries,
 * the name itself and compiler-internal names ("$tmp") are skipped.
 * Returns one of cands (not a copy). */
const char *suggest_closest(const char *name, const char *const *cands, int n);

#endif
