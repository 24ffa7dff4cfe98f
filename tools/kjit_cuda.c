/* kjit_cuda.c - what `kjit run|ptx|check` add for CUDA C files: the NVRTC
 * options (-I, -D, -U, --use_fast_math, -std=, --nvrtc-opt), which
 * tools/kjit_input.c passes when it loads a .cu file.  Written against <kjit.h> only, like the rest of the
 * tool. */
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

/* -I / -D / -U: joined ("-Iinc") or followed by their value ("-I inc"). */
static int take_joined(CliCuda *cu, int argc, char **argv, int *i, const char *flag, const char *cmd) {
  const char *a = argv[*i];
  if (strncmp(a, flag, 2) != 0)
    return 0;
  if (a[2]) {
    (*i)++;
    return add(cu, flag, a + 2);
  }
  if (*i + 1 >= argc) {
    fprintf(stderr, "kjit: error: option '%s' of '%s' needs a value\nTry 'kjit %s --help'.\n", flag,
            cmd, cmd);
    return -1;
  }
  *i += 2;
  return add(cu, flag, argv[*i - 1]);
}

int kjit_cli_cuda_option(CliCuda *cu, int argc, char **argv, int *i, const char *cmd) {
  const char *a = argv[*i];
  static const char *const joined[] = {"-I", "-D", "-U"};
  for (int k = 0; k < 3; k++)
    if (!strncmp(a, joined[k], 2))
      return take_joined(cu, argc, argv, i, joined[k], cmd);
  if (!strcmp(a, "--use_fast_math") || !strncmp(a, "-std=", 5)) {
    (*i)++;
    return add(cu, a, "");
  }
  if (!strncmp(a, "--nvrtc-opt=", 12)) {
    (*i)++;
    return add(cu, a + 12, "");
  }
  if (strcmp(a, "--nvrtc-opt") != 0)
    return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "kjit: error: option '--nvrtc-opt' of '%s' needs a value\n"
                    "Try 'kjit %s --help'.\n", cmd, cmd);
    return -1;
  }
  *i += 2;
  return add(cu, argv[*i - 1], "");
}

void kjit_cli_cuda_free(CliCuda *cu) {
  for (int i = 0; i < cu->n; i++)
    free(cu->opts[i]);
  free(cu->opts);
  cu->opts = NULL;
  cu->n = 0;
}
