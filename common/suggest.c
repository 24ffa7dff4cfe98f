/* suggest.c - "did you mean" (common/suggest.h): the edit distance and the
 * one threshold rule behind every suggestion of the library, from an
 * unknown kernel name at load time to a misspelt attribute in lowering.
 * Pure functions of their arguments: no allocation, no state. */
#include "common/suggest.h"

#include <ctype.h>
#include <string.h>

enum { NAME_MAX_LEN = 40 };

int suggest_distance(const char *a, const char *b) {
  int n = (int)strlen(a), m = (int)strlen(b);
  if (n > NAME_MAX_LEN || m > NAME_MAX_LEN)
    return 99;
  int d[NAME_MAX_LEN + 2][NAME_MAX_LEN + 2];
  for (int i = 0; i <= n; i++)
    d[i][0] = i;
  for (int j = 0; j <= m; j++)
    d[0][j] = j;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
      int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m];
}

/* Equal but for the case of ASCII letters. */
static int same_but_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

static int offerable(const char *cand, const char *name) {
  return cand && cand[0] != '$' && strcmp(cand, name) != 0;
}

const char *suggest_closest(const char *name, const char *const *cands, int n) {
  for (int i = 0; i < n; i++)
    if (offerable(cands[i], name) && same_but_case(cands[i], name))
      return cands[i];
  size_t len = strlen(name);
  if (len < 3)
    return NULL;
  const char *best = NULL;
  int bestd = len <= 4 ? 1 : 2;
  for (int i = 0; i < n; i++) {
    if (!offerable(cands[i], name) || strlen(cands[i]) < 3)
      continue;
    int d = suggest_distance(name, cands[i]);
    if (d <= bestd) {
      best = cands[i];
      bestd = d - 1; /* strictly nearer ones replace it */
      if (bestd < 0)
        break;
    }
  }
  return best;
}
