/* diag.h - source files, locations and diagnostics shared by every stage.
 *
 * Diagnostics are data: each stage appends to a Diags list and carries on
 * where it sensibly can; only the caller decides what to do with them.
 * Rendering gives "file:line:col: error[E412]: message", the source line, a caret
 * span under the culprit and an optional hint line.  Nothing here exits. */
#ifndef KJIT_COMMON_DIAG_H
#define KJIT_COMMON_DIAG_H

#include <stdbool.h>

#include "common/arena.h"
#include "common/diag_codes.h"
#include "common/strbuf.h"

typedef struct Source {
  const char *path; /* as given by the user; "<string>" for source strings */
  const char *text; /* NUL-terminated contents */
  size_t len;
} Source;

typedef struct SrcLoc {
  const Source *src; /* NULL for "no location" (e.g. a command-line signature) */
  int line, col;     /* 1-based; col counts bytes */
  int len;           /* length of the span in bytes on that line (>= 1) */
} SrcLoc;

typedef enum DiagLevel { DL_ERROR, DL_WARNING, DL_NOTE } DiagLevel;

typedef struct Diag {
  DiagLevel level;
  int code;         /* a DiagCode of common/diag_codes.h (0: none) */
  SrcLoc loc;
  const char *msg;  /* arena text */
  const char *hint; /* arena text or NULL */
} Diag;

typedef struct Diags {
  Arena *arena;     /* where message text lives */
  Vec(Diag) list;
  int nerrors;
  int max_errors;   /* stop recording past this many (0 = 100) */
  int ndropped;     /* diagnostics counted but not recorded past max_errors */
} Diags;

void diags_init(Diags *d, Arena *arena);
/* Append a diagnostic; hint may be NULL.  Returns the new entry. */
Diag *diag_add(Diags *d, DiagLevel level, int code, SrcLoc loc,
               const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
#define diag_error(d, code, loc, hint, ...) diag_add((d), DL_ERROR, (code), (loc), (hint), __VA_ARGS__)
/* Render all diagnostics (in order of appearance) into sb. */
void diags_render(const Diags *d, StrBuf *sb);
void diag_render(const Diag *g, StrBuf *sb);
/* The table's entry for a code: its status (false for a number that is not
 * a code), its constant's name and its summary (NULL for no code). */
bool diag_code_status(int code, DiagStatus *out);
const char *diag_code_name(int code);
const char *diag_code_summary(int code);
SrcLoc loc_span(SrcLoc a, SrcLoc b); /* from a to b's end when on one line, else a */
/* The source text under loc (to the end of its line when to_eol), copied
 * into a; NULL when loc has no source or lies past its end. */
const char *loc_text(Arena *a, SrcLoc loc, bool to_eol);

#endif
