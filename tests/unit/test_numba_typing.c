/* test_numba_typing.c - kjit's typing checked row by row against Numba.
 *
 * tests/numba/typing_reference.txt was recorded by tests/numba/probe_typing.py
 * on Numba 0.68 / numba-cuda: for each expression and argument types, the
 * return type Numba infers for `def f(a, b): return EXPR` (or ERROR).  This
 * test compiles the same device function through kjit's frontend, lowering
 * and inference and compares every row (float16 included); rows listed in
 * typing_divergences.txt are deliberate differences, each with its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ast.h"
#include "ir/ir.h"
#include "lower/lower.h"
#include "typing/typing.h"

typedef struct Row { char expr[128]; char t[2][32]; int ntypes; char expect[160]; int line; } Row;

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = 0;
  fclose(f);
  return s;
}

static void trim(char *s) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = 0;
  size_t k = 0;
  while (s[k] == ' ')
    k++;
  memmove(s, s + k, strlen(s + k) + 1);
}

/* "EXPR | T1 [| T2] | RESULT"; unify rows: "unify | T1 | T2 | R".  The
 * expression itself may contain " | " (a | b), so fields are classified:
 * the first run of type names after the expression are the argument types. */
static bool is_type_name(const char *s) {
  return strcmp(s, "boolean") == 0 || ty_from_name(s) != NULL;
}

static bool parse_row(const char *line, Row *r) {
  char buf[512], *field[16];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", line);
  for (char *p = buf; p && n < 16; n++) {
    field[n] = p;
    char *bar = strstr(p, " | ");
    if (bar) { *bar = 0; p = bar + 3; } else p = NULL;
  }
  int k = 1;
  while (k < n && !is_type_name(field[k]))
    k++;
  if (k >= n - 1)
    return false;
  r->expr[0] = 0;
  for (int i = 0; i < k; i++)
    snprintf(r->expr + strlen(r->expr), sizeof r->expr - strlen(r->expr), "%s%s", i ? " | " : "", field[i]);
  r->ntypes = 0;
  while (k < n - 1 && r->ntypes < 2 && is_type_name(field[k]))
    snprintf(r->t[r->ntypes++], sizeof r->t[0], "%s", field[k++]);
  r->expect[0] = 0;
  for (int i = k; i < n; i++)
    snprintf(r->expect + strlen(r->expect), sizeof r->expect - strlen(r->expect), "%s%s", i > k ? " | " : "", field[i]);
  trim(r->expr);
  trim(r->expect);
  return r->ntypes > 0 && r->expect[0];
}

static void build_source(const Row *r, char *buf, size_t size) {
  const char *head = "from numba import cuda\nimport math\nimport numpy\n\n"
                     "@cuda.jit(device=True)\n";
  if (strcmp(r->expr, "unify") == 0)
    snprintf(buf, size, "%sdef f(c, a, b):\n    x = a\n    if c:\n        x = b\n    return x\n", head);
  else if (r->ntypes == 2)
    snprintf(buf, size, "%sdef f(a, b):\n    return %s\n", head, r->expr);
  else
    snprintf(buf, size, "%sdef f(a):\n    return %s\n", head, r->expr);
}

/* Type the row's function; writes the result type name or "ERROR". */
static void infer_row(const Row *r, char *out, size_t size) {
  char text[1024];
  build_source(r, text, sizeof text);
  Arena arena;
  arena_init(&arena);
  Source src = {"<probe>", text, strlen(text)};
  Diags diags;
  diags_init(&diags, &arena);
  IrProgram prog = {0};
  prog.arena = &arena;
  prog.src = &src;
  prog.types = ty_table_new(&arena);
  prog.ast = parse_module(&arena, &src, &diags);
  snprintf(out, size, "ERROR");
  if (diags.nerrors == 0 && ir_lower_program(&prog, &diags)) {
    IrFunc *f = ir_find_func(&prog, "f");
    const Type *args[3];
    int nargs = 0;
    if (strcmp(r->expr, "unify") == 0)
      args[nargs++] = TY_BOOL_T;
    for (int i = 0; i < r->ntypes; i++)
      args[nargs++] = ty_from_name(r->t[i]);
    IrCompile c = {0};
    c.prog = &prog;
    c.arena = &arena;
    c.diags = &diags;
    SrcLoc none = {0};
    IrFunc *g = f ? ir_specialize(&c, f, args, nargs, none) : NULL;
    if (g && diags.nerrors == 0)
      ty_name(g->ret_type, out, (int)size);
  }
  arena_destroy(&arena);
}

static bool is_divergence(const char *divs, const char *key) {
  return divs && strstr(divs, key) != NULL;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "numba";
  char path[512];
  snprintf(path, sizeof path, "%s/typing_reference.txt", dir);
  char *text = slurp(path);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", path);
    return 1;
  }
  snprintf(path, sizeof path, "%s/typing_divergences.txt", dir);
  char *divs = slurp(path);
  int pass = 0, fail = 0, known = 0, lineno = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    lineno++;
    Row r;
    if (line[0] == '#')
      continue;
    if (!parse_row(line, &r)) {
      fprintf(stderr, "line %d: cannot parse row\n", lineno);
      fail++;
      continue;
    }
    bool want_error = strncmp(r.expect, "ERROR", 5) == 0;
    char got[160];
    infer_row(&r, got, sizeof got);
    bool ok = want_error ? strcmp(got, "ERROR") == 0 : strcmp(got, r.expect) == 0;
    char key[256];
    snprintf(key, sizeof key, "%s | %s%s%s |", r.expr, r.t[0], r.ntypes > 1 ? " | " : "",
             r.ntypes > 1 ? r.t[1] : "");
    if (ok)
      pass++;
    else if (is_divergence(divs, key))
      known++;
    else {
      fail++;
      fprintf(stderr, "line %d: %s -> kjit %s, numba %s\n", lineno, key, got,
              want_error ? "ERROR" : r.expect);
    }
  }
  printf("numba typing conformance: %d match, %d differ, %d documented divergences\n", pass,
         fail, known);
  free(text);
  free(divs);
  return fail ? 1 : 0;
}
