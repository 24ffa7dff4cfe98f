/* test_dispatch.c - Numba's choice among eager signatures (ir/dispatch.c).
 *
 * 1. The number conversion table is the closure of Numba's typeconv rules:
 *    recomputed here from the rules (a chain is as bad as its worst step,
 *    the best chain counts) and compared with ty_conversion for every pair.
 * 2. A table of signature lists x argument types with the signature Numba
 *    picks, the same cases as tests/numba/dispatch_probe.py (whose answers
 *    from real Numba they must match), as far as kjit's types can say them
 *    (no Fortran-ordered arrays).
 * 3. Every row of tests/numba/dispatch_numba_0.68.txt, Numba's own choices
 *    measured on a GPU, against rt_pick_eager on argument values (the
 *    launch path, Fortran-ordered arrays included). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "common/arena.h"
#include "common/diag.h"
#include "ir/dispatch.h"
#include "ir/type.h"
#include "lower/lower.h"
#include "runtime/dispatch.h"

/* ------------------------------------------------------------ closure --- */

enum { NT = TY_C128 - TY_BOOL + 1 };
#define K(t) ((t) - TY_BOOL)

/* Numba's rules: safe_unsafe(a, b) is a -> b safe and b -> a unsafe, and
 * so on for promote_unsafe and unsafe_unsafe; safe(a, b) is one way. */
static void rule(int g[NT][NT], TypeKind a, TypeKind b, TyConv fwd, TyConv back) {
  g[K(a)][K(b)] = fwd;
  if (back != TYCONV_NONE)
    g[K(b)][K(a)] = back;
}

static void numba_rules(int g[NT][NT]) {
  for (int i = 0; i < NT; i++)
    for (int j = 0; j < NT; j++)
      g[i][j] = i == j ? TYCONV_EXACT : TYCONV_NONE;
  const TyConv P = TYCONV_PROMOTE, S = TYCONV_SAFE, U = TYCONV_UNSAFE, N = TYCONV_NONE;
  rule(g, TY_BOOL, TY_I8, S, U);   rule(g, TY_BOOL, TY_U8, S, U);
  rule(g, TY_I8, TY_I16, P, U);    rule(g, TY_U8, TY_U16, P, U);
  rule(g, TY_I16, TY_I32, P, U);   rule(g, TY_U16, TY_U32, P, U);
  rule(g, TY_I32, TY_I64, P, U);   rule(g, TY_U32, TY_U64, P, U);
  rule(g, TY_U8, TY_I16, S, U);    rule(g, TY_U16, TY_I32, S, U);
  rule(g, TY_U32, TY_I64, S, U);
  rule(g, TY_I8, TY_F16, S, U);    rule(g, TY_I16, TY_F32, S, U);
  rule(g, TY_I32, TY_F64, S, U);
  rule(g, TY_I16, TY_F16, U, U);   rule(g, TY_I32, TY_F32, U, U);
  rule(g, TY_I64, TY_F64, S, U);   rule(g, TY_U64, TY_F64, S, U);
  rule(g, TY_F16, TY_F32, P, U);   rule(g, TY_F32, TY_F64, P, U);
  rule(g, TY_F32, TY_C64, S, N);   rule(g, TY_F64, TY_C128, S, N);
  rule(g, TY_C64, TY_C128, P, U);
}

/* Relax until nothing changes: a -> c through b is max(a->b, b->c). */
static void close_rules(int g[NT][NT]) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int a = 0; a < NT; a++)
      for (int b = 0; b < NT; b++)
        for (int c = 0; c < NT; c++) {
          int via = g[a][b] > g[b][c] ? g[a][b] : g[b][c];
          if (g[a][b] != TYCONV_NONE && g[b][c] != TYCONV_NONE && via < g[a][c])
            g[a][c] = via, changed = true;
        }
  }
}

static const Type *const numbers[NT] = {TY_BOOL_T, TY_I8_T,  TY_I16_T, TY_I32_T, TY_I64_T,
                                        TY_U8_T,   TY_U16_T, TY_U32_T, TY_U64_T, TY_F16_T,
                                        TY_F32_T,  TY_F64_T, TY_C64_T, TY_C128_T};

static void test_closure(void) {
  int g[NT][NT];
  numba_rules(g);
  close_rules(g);
  for (int a = 0; a < NT; a++)
    for (int b = 0; b < NT; b++) {
      TyConv got = ty_conversion(numbers[a], numbers[b], false);
      if (got != (TyConv)g[a][b])
        fprintf(stderr, "conversion %d -> %d: table %d, closure %d\n", a, b, got, g[a][b]);
      CHECK(got == (TyConv)g[a][b]);
    }
}

/* -------------------------------------------------------------- picks --- */

#define AMB IR_PICK_AMBIGUOUS
#define NONE IR_PICK_NONE

typedef struct Case {
  const char *sigs[3]; /* the eager signatures */
  const char *args;    /* the argument types, as a signature */
  int want;            /* index, AMB or NONE */
} Case;

#define FI {"void(float64)", "void(int64)"}
#define FF {"void(float32)", "void(float64)"}
#define IU {"void(int32)", "void(int64)", "void(uint64)"}
#define CF {"void(complex64)", "void(float64)"}
#define CC {"void(complex64)", "void(complex128)"}
#define TWO {"void(float64, int64)", "void(int64, float64)"}
#define LAY {"void(float64[:], int64)", "void(float64[::1], float64)"}
#define STR {"void(float64[:], float64)", "void(float64[:], int64)"}
#define TU {"void(UniTuple(float64, 2))", "void(UniTuple(int64, 2))"}

static const Case cases[] = {
    {FI, "void(int64)", 1},           {FI, "void(float64)", 0},
    {FI, "void(int32)", 1},           {FI, "void(int16)", 1},
    {FI, "void(int8)", 1},            {FI, "void(float32)", 0},
    {FI, "void(float16)", 0},         {FI, "void(uint64)", 0},
    {FI, "void(uint32)", AMB},        {FI, "void(uint8)", AMB},
    {FI, "void(boolean)", AMB},       {FI, "void(complex128)", NONE},
    {FI, "void(complex64)", NONE},    {FF, "void(float64)", 1},
    {FF, "void(float32)", 0},         {FF, "void(int64)", 1},
    {FF, "void(int32)", 1},           {FF, "void(uint16)", 1},
    {FF, "void(int16)", AMB},         {FF, "void(int8)", AMB},
    {FF, "void(uint8)", AMB},         {FF, "void(float16)", AMB},
    {IU, "void(int64)", 1},           {IU, "void(uint32)", 2},
    {IU, "void(int32)", 0},           {IU, "void(uint8)", 2},
    {IU, "void(uint64)", 2},          {IU, "void(int16)", AMB},
    {IU, "void(boolean)", AMB},       {IU, "void(float64)", AMB},
    {CF, "void(float32)", 1},         {CF, "void(float16)", 1},
    {CF, "void(complex128)", 0},      {CF, "void(int64)", 1},
    {CF, "void(int16)", AMB},         {CC, "void(complex128)", 1},
    {CC, "void(complex64)", 0},       {CC, "void(float64)", 1},
    {CC, "void(float32)", AMB},       {{"void(boolean)", "void(int8)"}, "void(boolean)", 0},
    {{"void(boolean)", "void(int8)"}, "void(int8)", 1},
    {{"void(boolean)", "void(int8)"}, "void(int64)", AMB},
    {TWO, "void(int32, int32)", AMB}, {TWO, "void(int64, float64)", 1},
    {TWO, "void(float64, int64)", 0}, {TWO, "void(int64, int64)", AMB},
    {LAY, "void(float64[::1], int64)", 1},
    {LAY, "void(float64[::1], float64)", 1},
    {LAY, "void(float64[:], int64)", 0},
    {LAY, "void(float64[:], float64)", 0},
    {STR, "void(float64[::1], int64)", 1},
    {STR, "void(float64[::1], float64)", 0},
    {{"void(float64[:])", "void(float64[::1])"}, "void(float64[::1])", 1},
    {{"void(float64[:])", "void(float64[::1])"}, "void(float64[:])", 0},
    {{"void(float32[::1])", "void(float64[::1])"}, "void(int64[::1])", NONE},
    {{"void(float32[::1])", "void(float64[::1])"}, "void(float32[::1])", 0},
    {TU, "void(UniTuple(int64, 2))", 1},
    {TU, "void(Tuple((float64, int64)))", 0},
    {TU, "void(UniTuple(int32, 2))", 1},
    {TU, "void(Tuple((complex128, int64)))", NONE},
    /* the same types twice count once: no ambiguity */
    {{"void(float64)", "void(float64)"}, "void(int64)", 0},
};

static bool parse(IrProgram *p, const char *text, Signature *s) {
  Diags d;
  diags_init(&d, p->arena);
  Source src = {"<signature>", text, strlen(text)};
  return ir_parse_signature(p, &src, s, &d) && d.nerrors == 0;
}

static void test_case(IrProgram *p, const Case *c) {
  Signature sigs[3], args;
  int n = 0;
  for (; n < 3 && c->sigs[n]; n++)
    CHECK(parse(p, c->sigs[n], &sigs[n]));
  CHECK(parse(p, c->args, &args));
  int tied[2];
  int got = ir_pick_signature(sigs, n, args.nparams, ir_type_arg_conv, args.params, tied);
  if (got != c->want)
    fprintf(stderr, "%s with %s: picked %d, want %d\n", c->sigs[0], c->args, got, c->want);
  CHECK(got == c->want);
}

/* ------------------------------------------------ Numba's own table --- */

/* ARGUMENT of a table row as a value ("py_big", "np.uint16", "f2_f32"). */
static bool table_value(const char *name, RtValue *v) {
  static const struct { const char *name; RtDtype dt; } py[] = {
      {"py_int", RT_I64}, {"py_big", RT_I64}, {"py_float", RT_F64}, {"py_bool", RT_BOOL},
      {"py_complex", RT_C128}, {"np.bool_", RT_BOOL}};
  *v = (RtValue){0};
  for (size_t i = 0; i < sizeof py / sizeof *py; i++)
    if (strcmp(name, py[i].name) == 0)
      return v->scalar.dtype = py[i].dt, true;
  if (strncmp(name, "np.", 3) == 0)
    return rt_dtype_parse(name + 3, strlen(name + 3), &v->scalar.dtype);
  static const struct { const char *name; RtDtype dt; int ndim; bool fortran; } arr[] = {
      {"c_f32", RT_F32, 1, false}, {"c_f64", RT_F64, 1, false}, {"c_i32", RT_I32, 1, false},
      {"c_i64", RT_I64, 1, false}, {"c2_f32", RT_F32, 2, false}, {"f2_f32", RT_F32, 2, true}};
  for (size_t i = 0; i < sizeof arr / sizeof *arr; i++)
    if (strcmp(name, arr[i].name) == 0) {
      RtArray *a = &v->array;
      v->is_array = true;
      a->dtype = arr[i].dt, a->ndim = arr[i].ndim;
      int64_t item = (int64_t)rt_array_itemsize(a);
      a->shape[0] = 2, a->shape[1] = 3; /* as the probe's (2, 3) array */
      a->strides[0] = arr[i].ndim == 1 || arr[i].fortran ? item : 3 * item;
      a->strides[1] = arr[i].fortran ? 2 * item : item;
      return true;
    }
  return false;
}

/* The signature index CHOICE names: AMBIG, NOMATCH, ERR(...) (the only
 * signature), a scalar type or an array type (kjit types F arrays A). */
static int table_choice(const char *choice, const Signature *sigs, int n, bool scalar) {
  if (strcmp(choice, "AMBIG") == 0)
    return AMB;
  if (strcmp(choice, "NOMATCH") == 0)
    return NONE;
  if (strncmp(choice, "ERR(", 4) == 0)
    return 0;
  char want[256];
  snprintf(want, sizeof want, "%s", choice);
  char *f = strstr(want, ", F)");
  if (f)
    f[2] = 'A';
  for (int i = 0; i < n; i++) {
    char got[128];
    ty_name(sigs[i].params[scalar ? 1 : 0], got, sizeof got);
    if (strcmp(got, want) == 0)
      return i;
  }
  return -100; /* unknown: reported */
}

/* "[float64 | int64]  np.int8  ->  int64": false when the line is not a row. */
static bool table_row(IrProgram *p, char *line, int lineno) {
  char *arrow = strstr(line, "->"), *close = arrow;
  while (close && close > line && *close != ']') /* the list's ']', not an array's */
    close--;
  if (line[0] != '[' || !arrow || close == line)
    return false;
  *close = 0, *arrow = 0;
  char argname[64], choice[256];
  if (sscanf(close + 1, "%63s", argname) != 1 || sscanf(arrow + 2, " %255[^\n]", choice) != 1)
    return false;
  Signature sigs[8];
  int n = 0;
  bool scalar = strncmp(line + 1, "void(", 5) != 0;
  for (char *tok = strtok(line + 1, "|"); tok && n < 8; tok = strtok(NULL, "|")) {
    char text[256];
    while (*tok == ' ')
      tok++;
    size_t len = strlen(tok);
    while (len > 0 && tok[len - 1] == ' ')
      tok[--len] = 0;
    snprintf(text, sizeof text, scalar ? "void(float64[::1], %s)" : "%s", tok);
    CHECK(parse(p, text, &sigs[n]));
    n++;
  }
  RtValue vals[2] = {0};
  int nargs = scalar ? 2 : 1;
  CHECK(table_value(scalar ? "c_f64" : argname, &vals[0]));
  if (scalar)
    CHECK(table_value(argname, &vals[1]));
  IrFunc f = {.name = "k"};
  f.eager.data = sigs, f.eager.len = n;
  int tied[2];
  int got = rt_pick_eager(&f, vals, nargs, tied), want = table_choice(choice, sigs, n, scalar);
  if (got != want)
    fprintf(stderr, "dispatch_numba line %d: %s: kjit %d, Numba %s (%d)\n", lineno, argname, got,
            choice, want);
  CHECK(got == want);
  return true;
}

static void test_numba_table(IrProgram *p, const char *path) {
  FILE *fp = fopen(path, "r");
  CHECK(fp != NULL);
  if (!fp)
    return;
  char line[512];
  int lineno = 0, rows = 0;
  while (fgets(line, sizeof line, fp)) {
    lineno++;
    line[strcspn(line, "\n")] = 0;
    rows += table_row(p, line, lineno);
  }
  fclose(fp);
  CHECK(rows > 600);
  printf("test_dispatch: %d rows of %s\n", rows, path);
}

int main(int argc, char **argv) {
  test_closure();
  Arena arena;
  arena_init(&arena);
  IrProgram p = {.arena = &arena};
  p.types = ty_table_new(&arena);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    test_case(&p, &cases[i]);
  test_numba_table(&p, argc > 1 ? argv[1] : "numba/dispatch_numba_0.68.txt");
  arena_destroy(&arena);
  printf("test_dispatch: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
