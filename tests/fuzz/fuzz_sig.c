/* fuzz_sig.c - libFuzzer target: signature strings ("void(float32[:], int64)")
 * as given to --sig, kjit_program_emit or a decorator.
 *
 * ir_parse_signature must accept or report; the accepted signature's types
 * are printed back (ty_name) to exercise the type table on what it built. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "lower/lower.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  Arena arena;
  arena_init(&arena);
  Source src = {"--sig", text, size};
  Diags diags;
  diags_init(&diags, &arena);
  IrProgram prog = {0};
  prog.arena = &arena;
  prog.src = &src;
  prog.types = ty_table_new(&arena);
  Signature sig;
  char name[256];
  if (ir_parse_signature(&prog, &src, &sig, &diags)) {
    if (sig.ret)
      ty_name(sig.ret, name, sizeof name);
    for (int i = 0; i < sig.nparams; i++)
      ty_name(sig.params[i], name, sizeof name);
  }
  StrBuf sb;
  sb_init(&sb);
  diags_render(&diags, &sb);
  sb_free(&sb);
  arena_destroy(&arena);
  free(text);
  return 0;
}
