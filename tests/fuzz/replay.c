/* replay.c - a plain main for the fuzz targets: feeds each file named on
 * the command line (or each file of a named directory) to
 * LLVMFuzzerTestOneInput once.  Linked with one fuzz_*.c under the normal
 * compiler, it replays tests/fuzz/regress and the corpora in ctest without
 * libFuzzer.  Exit 0 when every input returned (a crash ends the run); 1
 * when a path is missing, so a mistyped folder cannot pass silently. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0, got;
  do {
    if (len == cap) {
      cap = cap ? cap * 2 : 4096;
      buf = realloc(buf, cap);
      if (!buf)
        abort();
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
  } while (got > 0);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of `dir`, in name order (stable output). */
static int replay_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  if (!d)
    return 1;
  char **names = NULL;
  int n = 0, bad = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    names = realloc(names, sizeof *names * (size_t)(n + 1));
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n > 1) /* qsort(NULL, 0, ...) is undefined: an empty regress/ folder */
    qsort(names, (size_t)n, sizeof *names, compare);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      bad |= replay_file(path);
      ++*count;
    }
    free(names[i]);
  }
  free(names);
  return bad;
}

int main(int argc, char **argv) {
  int bad = 0, count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      bad = 1;
    } else if (S_ISDIR(st.st_mode)) {
      bad |= replay_dir(argv[i], &count);
    } else {
      bad |= replay_file(argv[i]);
      count++;
    }
  }
  printf("replay: %d input%s\n", count, count == 1 ? "" : "s");
  return bad;
}
