/* test_dispatch.c - Numba's choice among eager signatures (ir/dispatch.c).
 *
 * 1. The number conversion table is the closure of Numba's typeconv rules:
 *    recomputed here from the rules (a chain is as bad as its worst step,
 *    the best chain counts) and compared with ty_conversion for every pair.
 * 2. A table of signature lists x argument types with the signature Numba
 *    picks, the same cases as tests/numba/dispatch_probe.py (whose answers
 *    from real Numba they must match), as far as kjit's types can say them
 *    (no Fortran-ordered arrays). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "common/arena.h"
#include "common/diag.h"
#include "ir/dispatch.h"
#include "ir/type.h"

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

int main(void) {
  test_closure();
  Arena arena;
  arena_init(&arena);
  IrProgram p = {.arena = &arena};
  p.types = ty_table_new(&arena);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    test_case(&p, &cases[i]);
  arena_destroy(&arena);
  printf("test_dispatch: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
