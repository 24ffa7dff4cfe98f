/* kjit_cuda.c - what `kjit run|ptx|check` add for CUDA C files: the NVRTC
 * options (-I, -D, -U, --use_fast_math, -std=, --nvrtc-opt: CLI_CUDA_ROWS of
 * tools/cli_run.h), which tools/kjit_input.c passes when it loads a .cu
 * file.  Written against <kjit.h> only, like the rest of the tool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

int kjit_cli_is_cuda_file(const char *path) {
  size_t n = strlen(path);
  return (n > 3 && !strcmp(path + n - 3, ".cu")) || (n > 4 && !strcmp(path + n - 4, ".cuh"));
}

int kjit_cli_split_cuda_target(const char *arg, size_t *file_len) {
  for (const char *p = strstr(arg, ".cu"); p; p = strstr(p + 1, ".cu")) {
    size_t at = (size_t)(p - arg) + 3 + (p[3] == 'h');
    if (arg[at] == ':' && arg[at + 1]) {
      *file_len = at;
      return 1;
    }
  }
  return 0;
}

static int add(CliCuda *cu, const char *a, const char *b) {
  char **o = realloc(cu->opts, sizeof *o * (size_t)(cu->n + 1));
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (!o || !s) {
    free(s);
    if (o)
      cu->opts = o;
    fputs("kjit: error: out of memory\n", stderr);
    return -1;
  }
  snprintf(s, n, "%s%s", a, b);
  cu->opts = o;
  cu->opts[cu->n++] = s;
  return 1;
}

/* "-I" + "inc", "-std=" + "c++17", "--use_fast_math" + "", or OPT alone
 * for --nvrtc-opt: the option as NVRTC takes it. */
int kjit_cli_cuda_set(Cli *c, const CliOption *o, void *args, const char *value) {
  (void)c;
  CliCuda *cu = (CliCuda *)(void *)((char *)args + o->field);
  if (strcmp(o->name, "--nvrtc-opt") == 0)
    return add(cu, value, "") < 0 ? EXIT_ERRORS : EXIT_OK;
  if (o->form == CLI_EQ_ONLY) {
    char flag[32];
    snprintf(flag, sizeof flag, "%s=", o->name);
    return add(cu, flag, value) < 0 ? EXIT_ERRORS : EXIT_OK;
  }
  return add(cu, o->name, value ? value : "") < 0 ? EXIT_ERRORS : EXIT_OK;
}

void kjit_cli_cuda_free(CliCuda *cu) {
  for (int i = 0; i < cu->n; i++)
    free(cu->opts[i]);
  free(cu->opts);
  cu->opts = NULL;
  cu->n = 0;
}
