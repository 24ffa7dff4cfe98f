/* cli_option.c - the option tables of the `kjit` commands (tools/cli.h):
 * one reader of the command line and one printer of the options' help,
 * both driven by the command's CliOption rows, so an option the parser
 * accepts always has its help line and its spelling is written once.
 * Written against <kjit.h> only, like the rest of the tool. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* ------------------------------------------------------------ reading --- */

/* "-5", "-1.5e3", "-.5", "-inf", "-nan": values of `kjit run`, not options. */
static int is_negative_number(const char *a) {
  return (a[1] >= '0' && a[1] <= '9') || a[1] == '.' || strncmp(a, "-inf", 4) == 0 ||
         strncmp(a, "-nan", 4) == 0;
}

static int is_option(const char *a) {
  return a[0] == '-' && a[1] != '\0' && a[1] != ':' && !is_negative_number(a);
}

/* Whether argv[c->i] is o spelled `name`: 1 (c->i advanced past it and its
 * value), 0 not, -1 its value is missing. */
static int match(Cli *c, const CliOption *o, const char *name, const char **value) {
  const char *a = c->argv[c->i];
  size_t n = strlen(name);
  *value = NULL;
  if (strncmp(a, name, n) != 0)
    return 0;
  if (!o->metavar) {
    if (a[n])
      return 0;
    c->i++;
    return 1;
  }
  if (a[n] && (o->form == CLI_JOINED || a[n] == '=')) {
    *value = a + n + (o->form != CLI_JOINED);
    c->i++;
    return 1;
  }
  if (a[n] || o->form == CLI_EQ_ONLY)
    return 0;
  if (c->i + 1 >= c->argc)
    return -1;
  *value = c->argv[c->i + 1];
  c->i += 2;
  return 1;
}

/* Stores a value by a row without a setter: the flag's int, the value's
 * const char *. */
static int set_field(const CliOption *o, void *args, const char *value) {
  char *at = (char *)args + o->field;
  if (o->metavar)
    memcpy(at, &value, sizeof value);
  else
    *(int *)(void *)at = 1;
  return EXIT_OK;
}

/* The option at c->i, by the table; an unknown one is a usage error. */
static int take_option(Cli *c, const CliOption *opts, void *args) {
  const char *arg = c->argv[c->i];
  for (const CliOption *o = opts; o->name || o->help; o++) {
    if (!o->name || o->form == CLI_HELP)
      continue;
    const char *value, *spelled = o->name;
    int m = match(c, o, o->name, &value);
    if (!m && o->alias)
      m = match(c, o, spelled = o->alias, &value);
    if (m < 0)
      return kjit_cli_usage(c, "option '%s' of '%s' needs a value", spelled);
    if (m)
      return o->set ? o->set(c, o, args, value) : set_field(o, args, value);
  }
  const char *names[256];
  int n = 0;
  for (const CliOption *o = opts; (o->name || o->help) && n < 254; o++)
    if (o->name) {
      names[n++] = o->name;
      if (o->alias)
        names[n++] = o->alias;
    }
  char name[64];                        /* "--arch=sm_90": the name only */
  snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
  const char *near = kjit_cli_nearest(name, names, n);
  char msg[512];
  snprintf(msg, sizeof msg, "kjit: error: unknown option '%s' for '%s'\n", arg, c->cmd);
  kjit_cli_put_diag(msg, stderr);
  if (near) {
    snprintf(msg, sizeof msg, "hint: did you mean '%s'?\n", near);
    kjit_cli_put_diag(msg, stderr);
  }
  fprintf(stderr, "Try 'kjit %s --help'.\n", c->cmd);
  return EXIT_USAGE;
}

/* Edit distance with a swap of neighbours as one edit, capped at cap+1. */
static int distance(const char *a, const char *b, int cap) {
  size_t n = strlen(a), m = strlen(b);
  if (n > 62 || m > 62)
    return cap + 1;
  int d[64][64];
  for (size_t i = 0; i <= n; i++)
    d[i][0] = (int)i;
  for (size_t j = 0; j <= m; j++)
    d[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      v = v < d[i - 1][j] + 1 ? v : d[i - 1][j] + 1;
      v = v < d[i][j - 1] + 1 ? v : d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[n][m];
}

/* The library's did-you-mean rule (docs/cli.md), for the tool's own
 * names, which the library does not know: a name differing only in case,
 * else the nearest within 1 edit for names of up to 4 characters and 2
 * beyond; none for names under 3 characters. */
const char *kjit_cli_nearest(const char *name, const char *const *names, int n) {
  size_t len = strlen(name);
  for (int i = 0; i < n; i++)
    if (strcasecmp(name, names[i]) == 0)
      return names[i];
  if (len < 3)
    return NULL;
  int cap = len <= 4 ? 1 : 2, best = cap + 1;
  const char *near = NULL;
  for (int i = 0; i < n; i++) {
    int d = distance(name, names[i], cap);
    if (d < best)
      best = d, near = names[i];
  }
  return near;
}

int kjit_cli_parse(Cli *c, const CliOption *opts, void *args, CliPositional positional) {
  int options_end = 0;
  while (c->i < c->argc) {
    const char *arg = c->argv[c->i];
    int rc;
    if (!options_end && strcmp(arg, "--") == 0) {
      options_end = 1;
      c->i++;
      continue;
    }
    if (options_end || !is_option(arg)) {
      c->i++;
      rc = positional(c, args, arg);
    } else {
      rc = take_option(c, opts, args);
    }
    if (rc != EXIT_OK)
      return rc;
  }
  return EXIT_OK;
}

/* ------------------------------------------------------------ setters --- */

int kjit_cli_set_int(Cli *c, const CliOption *o, void *args, const char *value) {
  return kjit_cli_parse_int(c, o->name, value, o->lo, o->hi, (int *)(void *)((char *)args + o->field));
}

/* `--path DIR`: appended to the colon-separated list that
 * kjit_context_set_search_path receives. */
int kjit_cli_set_path(Cli *c, const CliOption *o, void *args, const char *dir) {
  (void)c;
  char **acc = (char **)(void *)((char *)args + o->field);
  size_t old = *acc ? strlen(*acc) : 0;
  char *s = realloc(*acc, old + strlen(dir) + 2);
  if (!s) {
    fputs("kjit: error: out of memory\n", stderr);
    return EXIT_ERRORS;
  }
  snprintf(s + old, strlen(dir) + 2, "%s%s", old ? ":" : "", dir);
  *acc = s;
  return EXIT_OK;
}

/* ----------------------------------------------------------- printing --- */

/* Spellings up to this long get a column; longer ones are followed by two
 * spaces and their help ("--emit kir|llvm|ptx|cubin  what to print"). */
enum { SPELLING_MAX = 20 };

/* "-h, --help", "-o NAME=PATH.npy", "-std=STD" into buf; its length. */
static int spell(const CliOption *o, char *buf, size_t n) {
  return snprintf(buf, n, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
                  !o->metavar ? "" : o->form == CLI_EQ_ONLY ? "=" : " ",
                  o->metavar ? o->metavar : "");
}

/* The help column of the rows from o to the next heading. */
static int group_column(const CliOption *o) {
  int width = 0;
  char buf[128];
  for (; o->name; o++) {
    int len = spell(o, buf, sizeof buf);
    if (len <= SPELLING_MAX && len > width)
      width = len;
  }
  return 2 + width + 2;
}

/* Text whose lines after the first are indented by col. */
static void put_indented(FILE *f, const char *text, int col) {
  for (const char *p = text; *p; p++) {
    fputc(*p, f);
    if (*p == '\n')
      fprintf(f, "%*s", col, "");
  }
  fputc('\n', f);
}

static void print_row(FILE *f, const CliOption *o, int col) {
  char buf[128];
  int len = spell(o, buf, sizeof buf);
  fprintf(f, "  %s", buf);
  fprintf(f, "%*s", 2 + len + 2 <= col ? col - 2 - len : 2, "");
  put_indented(f, o->help, col);
}

void kjit_cli_print_help(FILE *f, const CliHelp *h) {
  fputs(h->head, f);
  int col = group_column(h->options);
  for (const CliOption *o = h->options; o->name || o->help; o++) {
    if (o->name) {
      print_row(f, o, col);
      continue;
    }
    put_indented(f, o->help, 0);
    col = group_column(o + 1);
  }
  fputs(h->tail, f);
}
