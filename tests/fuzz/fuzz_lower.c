/* fuzz_lower.c - libFuzzer target: parse, lower, specialize and verify.
 *
 * Every decorated function of a program that parses and lowers is typed
 * for its eager signatures and for a few fixed argument-type sets (arrays,
 * ints, floats cycled over its parameters), then verified.  Typing errors
 * are fine; a crash, sanitizer report or a verifier complaint (E599: an
 * internal error) is not - the latter aborts so libFuzzer keeps the input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ast.h"
#include "ir/ir.h"
#include "lower/lower.h"
#include "typing/typing.h"

enum { MAX_PARAMS = 16 };

/* Types argument i of fixed set `which` gets. */
static const Type *pick_type(TypeTable *tt, int which, int i) {
  switch ((which + i) % 4) {
  case 0: return ty_array(tt, TY_F32_T, 1, LAYOUT_A);
  case 1: return TY_I64_T;
  case 2: return ty_array(tt, TY_I32_T, 2, LAYOUT_C);
  default: return which == 2 ? TY_F64_T : TY_F32_T;
  }
}

/* Specialize + verify one (function, argument types) in a fresh compile;
 * the generic IR is shared, so every compile starts from the same state. */
static void compile_one(IrProgram *p, Diags *d, IrFunc *f, const Type *const *args, int n) {
  IrCompile c = {0};
  c.prog = p;
  c.arena = p->arena;
  c.diags = d;
  int errors = d->nerrors;
  IrFunc *g = ir_specialize(&c, f, args, n, (SrcLoc){0});
  if (!g || d->nerrors != errors)
    return;
  for (int i = 0; i < c.funcs.len; i++)
    if (!ir_verify(c.funcs.data[i], d)) {
      StrBuf sb;
      sb_init(&sb);
      diags_render(d, &sb);
      fprintf(stderr, "fuzz_lower: verifier rejected typed IR of '%s':\n%s", f->name, sb.data ? sb.data : "");
      abort();
    }
}

static void compile_func(IrProgram *p, Diags *d, IrFunc *f) {
  for (int s = 0; s < f->eager.len; s++) {
    const Signature *sig = &f->eager.data[s];
    if (sig->nparams == f->nparams)
      compile_one(p, d, f, sig->params, sig->nparams);
  }
  if (f->nparams > MAX_PARAMS)
    return;
  const Type *args[MAX_PARAMS];
  for (int which = 0; which < 3; which++) {
    for (int i = 0; i < f->nparams; i++)
      args[i] = pick_type(p->types, which, i);
    compile_one(p, d, f, args, f->nparams);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  Arena arena;
  arena_init(&arena);
  Source src = {"<fuzz>", text, size};
  Diags diags;
  diags_init(&diags, &arena);
  IrProgram prog = {0};
  prog.arena = &arena;
  prog.src = &src;
  prog.types = ty_table_new(&arena);
  prog.ast = parse_module(&arena, &src, &diags);
  if (prog.ast && diags.nerrors == 0 && ir_lower_program(&prog, &diags))
    for (int i = 0; i < prog.funcs.len; i++)
      compile_func(&prog, &diags, prog.funcs.data[i]);
  arena_destroy(&arena);
  free(text);
  return 0;
}
