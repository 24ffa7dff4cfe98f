/* cli_docs.c - what the tool prints about itself beyond --help, all from
 * the commands' option tables (tools/cli.h), so nothing is written twice:
 * the man page (`kjit help --man`, installed as kjit.1), the bash
 * completion (`kjit help --bash-completion`), and colour on stderr
 * (--color=auto|always|never, NO_COLOR).  Written against <kjit.h> only. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* -------------------------------------------------------------- colour --- */

static int use_color;                   /* decided once, in main */

int kjit_cli_color_set(const char *when) {
  const char *no = getenv("NO_COLOR"); /* no-color.org: any value but "" */
  if (!when || strcmp(when, "auto") == 0)
    use_color = isatty(2) && !(no && *no) && !(getenv("TERM") && !strcmp(getenv("TERM"), "dumb"));
  else if (strcmp(when, "always") == 0)
    use_color = 1;
  else if (strcmp(when, "never") == 0)
    use_color = 0;
  else {
    fprintf(stderr, "kjit: error: --color expects auto, always or never, not '%s'\n"
                    "Try 'kjit --help'.\n", when);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* The coloured words at a line's start or after "file:line:col: " / "kjit: ". */
static const struct {
  const char *word;
  const char *sgr;
} paint[] = {
    {"error", "1;31"}, {"warning", "1;35"}, {"note", "1;36"}, {"hint:", "32"},
};

static void put_line(const char *line, size_t len, FILE *f) {
  size_t at = 0;
  if (strncmp(line, "kjit: ", 6) == 0)
    at = 6;
  else {                                /* after "path:L:C: " */
    const char *p = memchr(line, ' ', len);
    if (p && p > line && p[-1] == ':' && strspn(line, " ") == 0)
      at = (size_t)(p - line) + 1;
  }
  for (size_t i = 0; i < sizeof paint / sizeof paint[0]; i++) {
    const char *w = paint[i].word;
    size_t n = strlen(w);
    size_t from = strncmp(line, "hint:", 5) == 0 ? 0 : at;
    if (len >= from + n && strncmp(line + from, w, n) == 0) {
      size_t end = from + n;            /* "error[E412]" keeps its code */
      while (w[n - 1] != ':' && end < len && line[end] != ':')
        end++;
      if (from)
        fprintf(f, "\033[1m%.*s\033[0m", (int)from, line);
      fprintf(f, "\033[%sm%.*s\033[0m%.*s", paint[i].sgr, (int)(end - from), line + from,
              (int)(len - end), line + end);
      return;
    }
  }
  if (len > 0 && strspn(line, " ") + strspn(line + strspn(line, " "), "^~") >= len - 1 &&
      memchr(line, '^', len))           /* the caret line */
    fprintf(f, "\033[1;32m%.*s\033[0m", (int)len, line);
  else
    fwrite(line, 1, len, f);
}

void kjit_cli_put_diag(const char *text, FILE *f) {
  if (!use_color) {
    fputs(text, f);
    return;
  }
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    put_line(line, len, f);
    if (nl)
      fputc('\n', f);
    line += len + (nl != NULL);
  }
}

/* ------------------------------------------------------------ man page --- */

/* Text for roff: a leading '.' or '\'' escaped, backslashes doubled. */
static void roff(FILE *f, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\')
      fputs("\\e", f);
    else if (s[i] == '-')
      fputs("\\-", f);
    else if ((s[i] == '.' || s[i] == '\'') && (i == 0 || s[i - 1] == '\n'))
      fprintf(f, "\\&%c", s[i]);
    else
      fputc(s[i], f);
  }
}

static void roff_s(FILE *f, const char *s) { roff(f, s, strlen(s)); }

void kjit_cli_print_man(FILE *f, const char *overview, const CliCommand *cmds, int n,
                        const char *version) {
  fprintf(f, ".TH KJIT 1 \"\" \"kjit %s\" \"User Commands\"\n.SH NAME\nkjit \\- compile and run "
             "Numba\\-style CUDA kernels without Python\n.SH DESCRIPTION\n.nf\n", version);
  roff_s(f, overview);
  fputs(".fi\n.SH COMMANDS\n", f);
  for (int c = 0; c < n; c++) {
    fprintf(f, ".SS %s\n.nf\n", cmds[c].name);
    roff_s(f, cmds[c].help->head);
    fputs(".fi\n", f);
    for (const CliOption *o = cmds[c].help->options; o->name || o->help; o++) {
      if (!o->name) {
        fputs(".PP\n", f);
        roff_s(f, o->help);
        fputc('\n', f);
        continue;
      }
      fputs(".TP\n.B ", f);
      if (o->alias) {
        roff_s(f, o->alias);
        fputs(", ", f);
      }
      roff_s(f, o->name);
      if (o->metavar) {
        fputs(o->form == CLI_EQ_ONLY ? "=" : " ", f);
        roff_s(f, o->metavar);
      }
      fputc('\n', f);
      roff_s(f, o->help);
      fputc('\n', f);
    }
    if (*cmds[c].help->tail) {
      fputs(".PP\n.nf\n", f);
      roff_s(f, cmds[c].help->tail);
      fputs(".fi\n", f);
    }
  }
  fputs(".SH SEE ALSO\nThe documentation in docs/ (cli.md, api.md, language.md, numba.md).\n", f);
}

/* ------------------------------------------------------ bash completion --- */

void kjit_cli_print_bash_completion(FILE *f, const CliCommand *cmds, int n) {
  fputs("# bash completion for kjit, made by `kjit help --bash-completion`\n"
        "_kjit() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} words\n"
        "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    words='", f);
  for (int c = 0; c < n; c++)
    fprintf(f, "%s ", cmds[c].name);
  fputs("help --help --version --color='\n  else\n    case $cmd in\n", f);
  for (int c = 0; c < n; c++) {
    fprintf(f, "      %s) words='", cmds[c].name);
    for (const CliOption *o = cmds[c].help->options; o->name || o->help; o++)
      if (o->name)
        fprintf(f, "%s %s%s", o->name, o->alias ? o->alias : "", o->alias ? " " : "");
    fputs("' ;;\n", f);
  }
  fputs("      help) words='", f);
  for (int c = 0; c < n; c++)
    fprintf(f, "%s ", cmds[c].name);
  fputs("' ;;\n    esac\n  fi\n"
        "  if [[ $cur == -* || $COMP_CWORD -eq 1 ]]; then\n"
        "    mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
        "  else\n"
        "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
        "  fi\n"
        "}\n"
        "complete -o filenames -F _kjit kjit\n", f);
}
