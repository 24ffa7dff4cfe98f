/* parse_dump.c - test driver for the frontend: parse a file, print the
 * rendered diagnostics to stderr and the AST dump to stdout.
 *
 * Usage: parse_dump FILE.py   (exit 1 when there were errors, 2 on I/O errors).
 * The golden tests in tests/parse/ compare its output (see run.sh). */
#include <stdio.h>
#include <stdlib.h>

#include "common/arena.h"
#include "common/diag.h"
#include "common/strbuf.h"
#include "frontend/ast.h"

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  StrBuf sb;
  sb_init(&sb);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    sb_putn(&sb, buf, n);
  fclose(f);
  *len = sb.len;
  return sb_take(&sb);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: parse_dump FILE.py\n");
    return 2;
  }
  size_t len;
  char *text = read_file(argv[1], &len);
  if (!text) {
    perror(argv[1]);
    return 2;
  }
  Source src = {argv[1], text, len};
  Arena arena;
  arena_init(&arena);
  Diags diags;
  diags_init(&diags, &arena);
  Module *m = parse_module(&arena, &src, &diags);
  StrBuf out;
  sb_init(&out);
  diags_render(&diags, &out);
  fwrite(out.data ? out.data : "", 1, out.len, stderr); /* may hold NUL bytes */
  sb_free(&out);
  ast_dump_module(m, &out);
  fputs(out.data, stdout);
  sb_free(&out);
  int rc = diags.nerrors ? 1 : 0;
  arena_destroy(&arena);
  free(text);
  return rc;
}
