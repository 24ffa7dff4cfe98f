/* fuzz_parse.c - libFuzzer target: tokenizer + parser on arbitrary bytes.
 *
 * The input becomes a NUL-terminated Source (embedded NULs kept, as a file
 * read from disk may hold them); parse_module must return or report
 * diagnostics, and rendering them (source line + caret) must not fault.
 * Also built with tests/fuzz/replay.c as a plain program for ctest. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/ast.h"

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
  parse_module(&arena, &src, &diags);
  StrBuf sb;
  sb_init(&sb);
  diags_render(&diags, &sb);
  sb_free(&sb);
  arena_destroy(&arena);
  free(text);
  return 0;
}
