/* test_diag_codes.c - the diagnostic-code table (common/diag_codes.h) holds
 * each number once and each name once, every number is a three-digit code
 * (1..999), every code maps to exactly one status, and the lookups of
 * common/diag.c (status, name, summary) answer for every row and for no
 * other number. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/diag.h"

typedef struct Row {
  const char *name;
  int num;
  DiagStatus status;
  const char *summary;
} Row;

static const Row rows[] = {
#define X(name, num, status, summary) {#name, num, DS_##status, summary},
    DIAG_CODES(X)
#undef X
};
enum { NROWS = sizeof rows / sizeof rows[0] };

static void check_unique(void) {
  for (int i = 0; i < NROWS; i++)
    for (int j = i + 1; j < NROWS; j++) {
      CHECK(rows[i].num != rows[j].num);
      CHECK(strcmp(rows[i].name, rows[j].name) != 0);
      if (rows[i].num == rows[j].num || !strcmp(rows[i].name, rows[j].name))
        fprintf(stderr, "  duplicate: %s (E%03d) and %s (E%03d)\n", rows[i].name, rows[i].num,
                rows[j].name, rows[j].num);
    }
}

static void check_row(const Row *r) {
  DiagStatus st = DS_COUNT;
  CHECK(r->num >= 1 && r->num <= 999);
  CHECK(r->status >= 0 && r->status < DS_COUNT);
  CHECK(diag_code_status(r->num, &st) && st == r->status);
  CHECK(diag_code_name(r->num) && !strcmp(diag_code_name(r->num), r->name));
  CHECK(r->summary[0] && diag_code_summary(r->num) && !strcmp(diag_code_summary(r->num), r->summary));
  CHECK(!strncmp(r->name, "E_", 2) || !strncmp(r->name, "RT_E_", 5) || !strncmp(r->name, "RT_W_", 5));
}

/* Numbers outside the table have no status, name or summary. */
static void check_others(void) {
  int in_table = 0;
  for (int n = 0; n <= 1000; n++) {
    DiagStatus st;
    bool known = diag_code_status(n, &st);
    in_table += known;
    CHECK(known == (diag_code_name(n) != NULL));
    CHECK(known == (diag_code_summary(n) != NULL));
  }
  CHECK(in_table == NROWS);
}

/* The rendered header carries the code; a note does not. */
static void check_render(void) {
  Arena a;
  arena_init(&a);
  Diags d;
  diags_init(&d, &a);
  Source src = {"k.py", "x = 1\n", 6};
  diag_error(&d, E_TY_INDEX, ((SrcLoc){&src, 1, 1, 1}), NULL, "bad");
  diag_add(&d, DL_WARNING, RT_W_CACHE, (SrcLoc){0}, NULL, "cache");
  diag_add(&d, DL_NOTE, RT_E_ARGUMENT, (SrcLoc){0}, NULL, "note");
  StrBuf sb;
  sb_init(&sb);
  diags_render(&d, &sb);
  char *text = sb_take(&sb);
  CHECK(!strcmp(text, "k.py:1:1: error[E303]: bad\nx = 1\n^\nkjit: warning[E003]: cache\nkjit: note: note\n"));
  free(text);
  arena_destroy(&a);
}

int main(void) {
  check_unique();
  for (int i = 0; i < NROWS; i++)
    check_row(&rows[i]);
  check_others();
  check_render();
  printf("test_diag_codes: %d codes, %d checks, %d failed\n", NROWS, checks, failures);
  return failures != 0;
}
