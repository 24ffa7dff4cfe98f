/* fuzz_compile.c - libFuzzer target: the whole compile to PTX through the
 * public API (include/kjit.h only).
 *
 * The input is loaded as a kernel file and every kernel with eager
 * signatures is compiled to PTX for sm_80 (explicit, so no driver probe).
 * Any status is fine; KJIT_ERROR_INTERNAL is not (it aborts so libFuzzer
 * keeps the input).  One context serves every input, as in a long-running
 * host, with the disk cache off (every input reaches LLVM; nothing is
 * written to the user's cache).  Inputs over 4 KiB are skipped: LLVM is slow, small kernels are
 * enough to reach every stage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kjit.h"

enum { MAX_INPUT = 4096 };

static kjit_context *context(void) {
  static kjit_context *ctx;
  if (!ctx) {
    kjit_context_options o;
    kjit_context_options_init(&o);
    o.target = KJIT_TARGET_CPU;
    if (kjit_context_create(&o, &ctx) != KJIT_OK ||
        kjit_cache_configure(ctx, 0, NULL) != KJIT_OK)
      abort();
  }
  return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT)
    return 0;
  char text[MAX_INPUT + 1];
  memcpy(text, data, size);
  text[size] = 0;
  kjit_context *ctx = context();
  kjit_program *prog = NULL;
  if (kjit_program_load_source(ctx, "<fuzz>", text, &prog) != KJIT_OK)
    return 0;
  kjit_compile_options opts;
  kjit_compile_options_init(&opts);
  opts.arch = "sm_80";
  char *out = NULL;
  size_t len = 0;
  kjit_status st = kjit_program_emit(prog, NULL, NULL, &opts, KJIT_EMIT_PTX, &out, &len);
  if (st == KJIT_ERROR_INTERNAL) {
    fprintf(stderr, "fuzz_compile: internal error:\n%s\n", kjit_last_error(ctx));
    abort();
  }
  kjit_free(out);
  kjit_program_destroy(prog);
  return 0;
}
