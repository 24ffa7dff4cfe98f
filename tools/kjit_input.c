/* kjit_input.c - where `kjit run|ptx|check` read a kernel source from: a
 * file (Python, or CUDA C for .cu/.cuh, with the NVRTC options of
 * tools/kjit_cuda.c), or standard input for the name "-", which is read
 * here as a Python kernel file named "<stdin>" in diagnostics.  The
 * library reads only regular files (a pipe never ends for it), so the
 * tool reads the pipe itself, with the library's size cap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

/* The name diagnostics give standard input, as Python and GCC call it. */
#define STDIN_NAME "<stdin>"

int kjit_cli_is_stdin(const char *file) {
  return strcmp(file, "-") == 0;
}

/* KJIT_MAX_SOURCE_BYTES, as the library reads it for files (default 16
 * MiB): a source piped in is held to the same bound. */
static size_t source_cap(void) {
  const char *v = getenv("KJIT_MAX_SOURCE_BYTES");
  char *end;
  errno = 0;
  unsigned long long n = v ? strtoull(v, &end, 10) : 0;
  return v && !*end && !errno && n > 0 ? (size_t)n : (size_t)16 << 20;
}

/* Reads all of standard input (at most the cap) into malloc'd,
 * NUL-terminated text; NULL after printing why. */
static char *read_stdin(void) {
  size_t cap = source_cap(), len = 0, size = 0;
  char *text = NULL;
  for (;;) {
    if (len + 16384 + 1 > size) {
      size = size ? size * 2 : 65536;
      char *t = realloc(text, size);
      if (!t) {
        free(text);
        fputs("kjit: error: out of memory reading standard input\n", stderr);
        return NULL;
      }
      text = t;
    }
    size_t n = fread(text + len, 1, 16384, stdin);
    len += n;
    if (len > cap) {
      free(text);
      fprintf(stderr, "kjit: error: '%s' is larger than the source size limit of %zu bytes\n"
                      "hint: raise the limit with KJIT_MAX_SOURCE_BYTES=N\n", STDIN_NAME, cap);
      return NULL;
    }
    if (n == 0)
      break;
  }
  if (ferror(stdin)) {
    fprintf(stderr, "kjit: error: cannot read '%s': %s\n", STDIN_NAME, strerror(errno));
    free(text);
    return NULL;
  }
  text[len] = '\0';
  if (strlen(text) != len) {            /* the library takes NUL-terminated text */
    fprintf(stderr, "kjit: error: '%s' holds a NUL byte at offset %zu; a kernel source is text\n",
            STDIN_NAME, strlen(text));
    free(text);
    return NULL;
  }
  return text;
}

/* "-": standard input, read once per process (a second "-" would find it
 * empty, so the command lines refuse it before anything is read). */
static kjit_status load_stdin(kjit_context *ctx, const CliCuda *cu, kjit_program **out,
                              int *usage) {
  if (cu->n) {
    fprintf(stderr, "kjit: error: '%s' is an NVRTC option; standard input is read as a "
                    "Python kernel file (give CUDA C as a .cu file)\n", cu->opts[0]);
    *usage = 1;
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  char *text = read_stdin();
  if (!text) {
    *usage = -1;                        /* reported here, not on the context */
    return KJIT_ERROR_IO;
  }
  kjit_status st = kjit_program_load_source(ctx, STDIN_NAME, text, out);
  free(text);
  return st;
}

kjit_status kjit_cli_load(kjit_context *ctx, const char *file, const CliCuda *cu,
                          kjit_program **out, int *usage) {
  *usage = 0;
  if (kjit_cli_is_stdin(file))
    return load_stdin(ctx, cu, out, usage);
  if (kjit_cli_is_cuda_file(file)) {
    kjit_cuda_options o;
    kjit_cuda_options_init(&o);
    o.nvrtc_options = (const char *const *)cu->opts;
    o.count = cu->n;
    return kjit_program_load_cuda_file(ctx, file, &o, out);
  }
  if (cu->n) {
    fprintf(stderr, "kjit: error: '%s' is an NVRTC option; it applies to CUDA C files (.cu) only\n",
            cu->opts[0]);
    *usage = 1;
    return KJIT_ERROR_INVALID_ARGUMENT;
  }
  return kjit_program_load_file(ctx, file, out);
}
