/* kjit_cache.c - `kjit cache stats|clear|prune`: the disk cache from the
 * command line.
 *
 * Part of the `kjit` tool (tools/kjit.c dispatches here) and, like it, a
 * client of the public API only (the kjit_cache_* calls of <kjit.h>).
 * Exit status as for every command: 0 success, 1 the cache could not be
 * read, 2 bad command line. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OK = EXIT_OK, ERRORS = EXIT_ERRORS, USAGE = EXIT_USAGE };

static int usage(const char *fmt, const char *what) {
  fputs("kjit: error: ", stderr);
  fprintf(stderr, fmt, what);
  fputs("\nTry 'kjit cache --help'.\n", stderr);
  return USAGE;
}

/* "1000", "64K", "256M", "2G" (binary multiples). */
static int parse_bytes(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno || *s == '-')
    return usage("--max-bytes expects a size such as 1000, 64K or 256M, not '%s'", s);
  int shift = 0;
  if (*end && strchr("kK", *end)) shift = 10;
  else if (*end && strchr("mM", *end)) shift = 20;
  else if (*end && strchr("gG", *end)) shift = 30;
  if (shift)
    end++;
  if (*end || v > (UINT64_MAX >> shift))
    return usage("--max-bytes expects a size such as 1000, 64K or 256M, not '%s'", s);
  *out = (uint64_t)v << shift;
  return OK;
}

static void print_size(const char *label, uint64_t bytes) {
  printf("%s%.1f MiB (%llu bytes)", label, (double)bytes / (1024.0 * 1024.0),
         (unsigned long long)bytes);
}

static int report(kjit_context *ctx, kjit_status st) {
  fputs(kjit_last_diagnostics(ctx), stderr); /* warnings, or the error */
  return st == KJIT_OK ? OK : st == KJIT_ERROR_INVALID_ARGUMENT ? USAGE : ERRORS;
}

static int show_stats(kjit_context *ctx) {
  kjit_cache_info s;
  kjit_status st = kjit_cache_stats(ctx, &s);
  if (st != KJIT_OK)
    return report(ctx, st);
  printf("cache directory: %s\n", *s.dir ? s.dir : "(none: set KJIT_CACHE_DIR or HOME)");
  printf("status: %s\n", s.enabled ? "enabled" : "disabled");
  printf("entries: %llu\n", (unsigned long long)s.entries);
  print_size("size: ", s.bytes);
  print_size(" of a ", s.max_bytes);
  puts(" cap");
  return report(ctx, st);
}

/* The action and --max-bytes, as read. */
typedef struct CacheArgs {
  const char *action;
  const char *max;        /* --max-bytes N, as written; NULL: none */
} CacheArgs;

static int set_action(Cli *c, void *args, const char *arg) {
  (void)c;
  CacheArgs *a = args;
  if (a->action)
    return usage("unexpected argument '%s' for 'cache'", arg);
  a->action = arg;
  return OK;
}

static const CliOption cache_options[] = {
    {.help = "options:"},
    {.name = "--max-bytes", .metavar = "N", .field = offsetof(CacheArgs, max),
     .help = "size for prune: bytes, or with a K, M or G suffix"},
    CLI_HELP_ROW,
    {0},
};

const CliHelp kjit_cache_help = {
    "usage: kjit cache stats|clear|prune [--max-bytes N]\n"
    "\n"
    "Inspect or shrink the disk cache of compiled kernels (PTX, and host\n"
    "objects of the cpu target).\n"
    "\n"
    "  stats               the cache directory, its entries and size\n"
    "  clear               delete every entry\n"
    "  prune               delete least-recently used entries until the cache\n"
    "                      holds at most --max-bytes (default: the size cap)\n"
    "\n",
    cache_options,
    "\n"
    "environment:\n"
    "  KJIT_CACHE_DIR        the cache directory (default $XDG_CACHE_HOME/kjit,\n"
    "                        else ~/.cache/kjit)\n"
    "  KJIT_CACHE=0          disable the cache\n"
    "  KJIT_CACHE_MAX_BYTES  size cap, least-recently used entries evicted\n"
    "                        (default 256M)\n"
    "  KJIT_CACHE_LOCK_WAIT  seconds a process waits for another compiling the\n"
    "                        same kernel before compiling it itself (default 30)\n"};

/* clear or prune: the entries removed. */
static int shrink(kjit_context *ctx, const CacheArgs *a) {
  uint64_t limit = 0, removed = 0;
  if (a->max && parse_bytes(a->max, &limit) != OK)
    return USAGE;
  kjit_cache_info info;
  kjit_status st = KJIT_OK;
  if (strcmp(a->action, "prune") == 0 && !a->max) { /* default: down to the cap */
    if ((st = kjit_cache_stats(ctx, &info)) != KJIT_OK)
      return report(ctx, st);
    limit = info.max_bytes;
  }
  if (strcmp(a->action, "clear") == 0)
    st = kjit_cache_clear(ctx, &removed);
  else
    st = kjit_cache_prune(ctx, limit, &removed);
  if (st == KJIT_OK)
    printf("removed %llu entr%s\n", (unsigned long long)removed, removed == 1 ? "y" : "ies");
  return report(ctx, st);
}

int kjit_cli_cache(Cli *c, kjit_context *ctx) {
  CacheArgs a = {0};
  int rc = kjit_cli_parse(c, cache_options, &a, set_action);
  if (rc != OK)
    return rc;
  if (!a.action)
    return usage("missing action for 'cache'%s (stats, clear or prune)", "");
  int known = !strcmp(a.action, "stats") || !strcmp(a.action, "clear") || !strcmp(a.action, "prune");
  if (a.max && strcmp(a.action, "prune") != 0)
    return usage("--max-bytes is for 'prune', not '%s'", a.action);
  if (!known)
    return usage("unknown action '%s' for 'cache' (stats, clear or prune)", a.action);
  return strcmp(a.action, "stats") == 0 ? show_stats(ctx) : shrink(ctx, &a);
}
