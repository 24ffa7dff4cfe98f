/* program.c - a kjit_program's core: reading source files (with the size
 * cap) and a new, empty program.  Loading, queries and destruction are the
 * public API's (api/program.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/runtime.h"
#include "data/npy.h"
#include "common/settings.h"

/* ----------------------------------------------------------- reading --- */

/* The source size cap: KJIT_MAX_SOURCE_BYTES, default 16 MiB; a value that
 * is not a positive number of bytes keeps the default with a warning, as
 * the cache's settings do. */
static size_t max_source(Diags *d) {
  const char *v = rt_setting(RT_SET_MAX_SOURCE);
  char *end = NULL;
  errno = 0;
  unsigned long long n = v ? strtoull(v, &end, 10) : 0;
  if (v && !*end && !errno && n > 0 && *v != '-')
    return (size_t)n;
  if (v && d && strcmp(v, rt_setting_info(RT_SET_MAX_SOURCE)->def) != 0)
    diag_add(d, DL_WARNING, RT_W_SETTING, (SrcLoc){0}, "give a positive number of bytes, e.g. 33554432",
             "KJIT_MAX_SOURCE_BYTES='%.40s' is not a number of bytes; using 16777216", v);
  return (size_t)16 << 20;
}

/* Reads f to its end (at most KJIT_MAX_SOURCE_BYTES) into malloc'd,
 * NUL-terminated text, and closes it; errors name the source `name`. */
bool rt_read_stream(FILE *f, const char *path, char **text, size_t *len, Diags *d) {
  size_t cap = max_source(d);
  StrBuf sb;
  sb_init(&sb);
  char buf[16384];
  size_t n;
  while (sb.len <= cap && (n = fread(buf, 1, sizeof buf, f)) > 0)
    sb_putn(&sb, buf, n);
  int err = ferror(f) ? errno : 0;
  fclose(f);
  if (err || sb.len > cap) {
    if (d && err)
      diag_error(d, RT_E_IO, (SrcLoc){0}, NULL, "cannot read '%s': %s", path, strerror(err));
    else if (d)
      diag_error(d, RT_E_IO, (SrcLoc){0}, "raise the limit with KJIT_MAX_SOURCE_BYTES=N",
                 "'%s' is larger than the source size limit of %zu bytes", path, cap);
    sb_free(&sb);
    return false;
  }
  *len = sb.len;
  *text = sb_take(&sb);
  return true;
}

/* Reads the whole file into malloc'd, NUL-terminated text.  Errors name
 * the file as the user wrote it: "cannot open 'x.py': No such file...".
 * Only regular files of at most KJIT_MAX_SOURCE_BYTES are read: /dev/zero
 * or a FIFO would never end.  d == NULL: fail quietly (optional files). */
bool rt_read_file(const char *path, char **text, size_t *len, Diags *d) {
  const char *why;
  int fd = rt_open_regular(path, &why);
  if (fd < 0) {
    if (!d)
      return false;
    if (why)
      diag_error(d, RT_E_IO, (SrcLoc){0}, "kernel sources are read from regular files",
                 "cannot read '%s': it is %s", path, why);
    else
      diag_error(d, RT_E_IO, (SrcLoc){0}, NULL, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    if (d)
      diag_error(d, RT_E_IO, (SrcLoc){0}, NULL, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  return rt_read_stream(f, path, text, len, d);
}

/* ----------------------------------------------------------- loading --- */

kjit_program *rt_program_new(kjit_context *ctx, const char *name, const char *text,
                             size_t len) {
  kjit_program *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->magic = RT_PROGRAM_LIVE;
  p->ctx = ctx;
  arena_init(&p->arena);
  p->src.path = arena_strdup(&p->arena, name);
  p->src.text = arena_strndup(&p->arena, text, len);
  p->src.len = len;
  p->ir.arena = &p->arena;
  p->ir.src = &p->src;
  p->ir.types = ty_table_new(&p->arena);
  return p;
}
