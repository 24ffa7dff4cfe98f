/* cuc_decl.c - the declarations of CUDA C kernels, read without a compiler.
 *
 * A scanner tokenizes the .cu text (comments, string and character
 * literals and preprocessor lines skipped) and finds every `__global__`
 * function: its name, the template parameters before it, the tokens of its
 * parameter list.  A parameter is then one of a few shapes kjit can pass:
 * a scalar type or a pointer to one, with const/volatile/__restrict__;
 * anything else (structs, references, arrays, pointers to pointers, user
 * typedefs) is refused, naming the parameter.  Macros are not expanded: a
 * kernel whose declaration comes from a macro is not found. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuc.h"

/* ------------------------------------------------------------ tokens --- */

typedef struct Tok {
  const char *text;          /* arena copy; "\"\"" for any string literal */
  int line, col;
} Tok;

typedef Vec(Tok) TokVec;

static bool is_ident_char(char c) { return c == '_' || isalnum((unsigned char)c); }

/* Skips a comment, literal or preprocessor line at p; returns p if none. */
static const char *skip_trivia(const char *p, bool line_start, int *line) {
  if (p[0] == '/' && p[1] == '/')
    return p + strcspn(p, "\n");
  if (p[0] == '/' && p[1] == '*') {
    const char *e = strstr(p + 2, "*/");
    e = e ? e + 2 : p + strlen(p);
    for (const char *q = p; q < e; q++)
      *line += *q == '\n';
    return e;
  }
  if (*p == '#' && line_start) { /* a directive, with its continuations */
    while (*p && !(*p == '\n' && p[-1] != '\\'))
      *line += *p++ == '\n' && p[-2] == '\\';
    return p;
  }
  return p;
}

/* A string or character literal (one line; raw strings are not read). */
static const char *skip_literal(const char *p) {
  char q = *p++;
  while (*p && *p != q && *p != '\n')
    p += p[0] == '\\' && p[1] ? 2 : 1;
  return *p == q ? p + 1 : p;
}

static void tokenize(Arena *a, const char *text, TokVec *out) {
  int line = 1;
  const char *bol = text;
  bool line_start = true;
  for (const char *p = text; *p;) {
    if (*p == '\n') {
      line++, p++, bol = p, line_start = true;
      continue;
    }
    if (isspace((unsigned char)*p)) {
      p++;
      continue;
    }
    int l0 = line;
    const char *q = skip_trivia(p, line_start, &line);
    if (q != p) {
      if (line != l0)
        for (bol = q; bol > text && bol[-1] != '\n'; bol--) {}
      p = q;
      continue;
    }
    line_start = false;
    Tok t = {NULL, line, (int)(p - bol) + 1};
    if (*p == '"' || *p == '\'') {
      q = skip_literal(p);
      t.text = *p == '"' ? "\"\"" : "''";
    } else if (is_ident_char(*p)) {
      for (q = p; is_ident_char(*q); q++) {}
      t.text = arena_strndup(a, p, (size_t)(q - p));
    } else {
      q = p + 1;
      t.text = arena_strndup(a, p, 1);
    }
    vec_push(a, out, t);
    p = q;
  }
}

static bool is(const Tok *t, const char *s) { return strcmp(t->text, s) == 0; }
static bool is_ident(const Tok *t) { return is_ident_char(t->text[0]) && !isdigit((unsigned char)t->text[0]); }

/* ------------------------------------------------------------ scanning --- */

/* The index of the token closing the bracket at i (or n). */
static int match_close(const TokVec *v, int i) {
  const char *open = v->data[i].text;
  char close = open[0] == '(' ? ')' : open[0] == '<' ? '>' : open[0] == '[' ? ']' : '}';
  int depth = 0;
  for (int k = i; k < v->len; k++) {
    if (v->data[k].text[0] == open[0] && !v->data[k].text[1])
      depth++;
    else if (v->data[k].text[0] == close && !v->data[k].text[1] && --depth == 0)
      return k;
  }
  return v->len;
}

/* The template parameter names of `template <...>` ending at token gt. */
static void template_params(Arena *a, const TokVec *v, int lt, int gt, CucDecl *d) {
  d->is_template = true;
  d->tparams = arena_alloc(a, sizeof *d->tparams * (size_t)(gt - lt + 1));
  const char *last = NULL;
  bool in_default = false;
  int depth = 0;
  for (int k = lt + 1; k <= gt; k++) {
    const Tok *t = &v->data[k];
    if (depth == 0 && (is(t, ",") || k == gt)) {
      if (last)
        d->tparams[d->ntparams++] = last;
      last = NULL, in_default = false;
      continue;
    }
    depth += is(t, "<") || is(t, "(") ? 1 : is(t, ">") || is(t, ")") ? -1 : 0;
    if (is(t, "="))
      in_default = true;
    else if (!in_default && depth == 0 && is_ident(t) && !is(t, "typename") && !is(t, "class"))
      last = t->text;
  }
}

/* Looks back from the __global__ token g over specifiers to a template
 * header `template <...>`. */
static void find_template(Arena *a, const TokVec *v, int g, CucDecl *d) {
  static const char *const specs[] = {"static", "inline", "__inline__", "__forceinline__",
                                      "__noinline__", "extern", "\"\"", "__host__", "__device__"};
  int k = g - 1;
  for (bool more = true; k >= 0 && more;) {
    more = false;
    for (size_t s = 0; s < sizeof specs / sizeof *specs && !more; s++)
      more = is(&v->data[k], specs[s]);
    k -= more;
  }
  if (k < 1 || !is(&v->data[k], ">"))
    return;
  int depth = 0, lt = k;
  for (; lt >= 0; lt--) {
    depth += is(&v->data[lt], ">") ? 1 : is(&v->data[lt], "<") ? -1 : 0;
    if (depth == 0)
      break;
  }
  if (lt >= 1 && is(&v->data[lt - 1], "template"))
    template_params(a, v, lt, k, d);
}

/* The declaration after __global__ at g: skips attributes and
 * __launch_bounds__(...) to NAME ( ... ).  False when it does not read. */
static bool read_decl(Arena *a, const Source *s, const TokVec *v, int g, CucDecl *d) {
  int k = g + 1;
  while (k < v->len && !is(&v->data[k], "(") && !is(&v->data[k], ";") && !is(&v->data[k], "{")) {
    if (k + 1 < v->len && is(&v->data[k + 1], "(") &&
        (is(&v->data[k], "__launch_bounds__") || is(&v->data[k], "__attribute__") ||
         is(&v->data[k], "__maxnreg__") || is(&v->data[k], "__cluster_dims__")))
      k = match_close(v, k + 1);
    k++;
  }
  if (k >= v->len || !is(&v->data[k], "(") || !is_ident(&v->data[k - 1]))
    return false;
  const Tok *name = &v->data[k - 1];
  int close = match_close(v, k);
  if (close >= v->len)
    return false;
  d->name = name->text;
  d->loc = (SrcLoc){s, name->line, name->col, (int)strlen(name->text)};
  d->ntoks = close - k - 1;
  d->toks = arena_alloc(a, sizeof *d->toks * (size_t)(d->ntoks + 1));
  for (int i = 0; i < d->ntoks; i++)
    d->toks[i] = v->data[k + 1 + i].text;
  find_template(a, v, g, d);
  return true;
}

static bool same_decl(const CucDecl *x, const CucDecl *y) {
  if (strcmp(x->name, y->name) != 0 || x->is_template != y->is_template || x->ntoks != y->ntoks)
    return false;
  for (int i = 0; i < x->ntoks; i++)
    if (strcmp(x->toks[i], y->toks[i]) != 0)
      return false;
  return true;
}

int cuc_scan(Arena *a, const Source *s, CucDecl **out) {
  TokVec v = {0};
  tokenize(a, s->text, &v);
  Vec(CucDecl) ds = {0};
  for (int i = 0; i < v.len; i++) {
    CucDecl d = {0};
    if (!is(&v.data[i], "__global__") || !read_decl(a, s, &v, i, &d))
      continue;
    bool dup = false;
    for (int k = 0; k < ds.len && !dup; k++)
      dup = same_decl(&ds.data[k], &d);
    if (!dup)
      vec_push(a, &ds, d);
  }
  *out = ds.data;
  return ds.len;
}

/* ---------------------------------------------------------- parameters --- */

typedef struct TypeName {
  const char *name;
  RtDtype dtype;
} TypeName;

/* Common typedef'd names (as <stdint.h>, <stddef.h> and cuda_fp16.h give them). */
static const TypeName typedefs[] = {
    {"int8_t", RT_I8},     {"int16_t", RT_I16},   {"int32_t", RT_I32},    {"int64_t", RT_I64},
    {"uint8_t", RT_U8},    {"uint16_t", RT_U16},  {"uint32_t", RT_U32},   {"uint64_t", RT_U64},
    {"size_t", RT_U64},    {"ssize_t", RT_I64},   {"ptrdiff_t", RT_I64},  {"intptr_t", RT_I64},
    {"uintptr_t", RT_U64}, {"__half", RT_F16},    {"half", RT_F16},       {"float", RT_F32},
    {"double", RT_F64},    {"bool", RT_BOOL},     {"uint", RT_U32},       {"ushort", RT_U16},
    {"ulong", RT_U64},     {"uchar", RT_U8}};

static bool is_qualifier(const char *w) {
  return !strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "__restrict__") ||
         !strcmp(w, "__restrict") || !strcmp(w, "restrict");
}

static bool is_builtin_word(const char *w) {
  static const char *const words[] = {"unsigned", "signed", "char", "short", "int", "long", "void"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (!strcmp(w, words[i]))
      return true;
  for (size_t i = 0; i < sizeof typedefs / sizeof *typedefs; i++)
    if (!strcmp(w, typedefs[i].name))
      return true;
  return false;
}

/* The dtype of a sequence of type words ("unsigned long long", "size_t");
 * *is_void for void.  False when it names no type kjit knows. */
static bool words_dtype(const char **w, int n, RtDtype *dt, bool *is_void) {
  int nunsigned = 0, nsigned = 0, nchar = 0, nshort = 0, nint = 0, nlong = 0, other = 0;
  const char *single = NULL;
  *is_void = false;
  for (int i = 0; i < n; i++) {
    if (!strcmp(w[i], "unsigned")) nunsigned++;
    else if (!strcmp(w[i], "signed")) nsigned++;
    else if (!strcmp(w[i], "char")) nchar++;
    else if (!strcmp(w[i], "short")) nshort++;
    else if (!strcmp(w[i], "int")) nint++;
    else if (!strcmp(w[i], "long")) nlong++;
    else single = w[i], other++;
  }
  if (other) {
    if (other > 1 || n > 1)
      return false;
    if (!strcmp(single, "void"))
      return *is_void = true;
    for (size_t i = 0; i < sizeof typedefs / sizeof *typedefs; i++)
      if (!strcmp(single, typedefs[i].name))
        return *dt = typedefs[i].dtype, true;
    return false;
  }
  if (n == 0 || nunsigned + nsigned > 1 || nchar + nshort + (nlong > 0) > 1 || nint > 1 || nlong > 2)
    return false;
  int bytes = nchar ? 1 : nshort ? 2 : nlong ? 8 : 4; /* long is 64-bit (LP64) */
  static const RtDtype s[] = {RT_I8, RT_I16, RT_NDTYPES, RT_I32, RT_NDTYPES, RT_NDTYPES,
                              RT_NDTYPES, RT_I64};
  static const RtDtype u[] = {RT_U8, RT_U16, RT_NDTYPES, RT_U32, RT_NDTYPES, RT_NDTYPES,
                              RT_NDTYPES, RT_U64};
  *dt = nunsigned ? u[bytes - 1] : s[bytes - 1];
  return true;
}

/* "const float *a" from the tokens. */
static const char *join(Arena *a, const char *const *t, int n) {
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < n; i++) {
    if (!strcmp(t[i], "*"))
      sb_puts(&sb, " *");
    else if (!strcmp(t[i], ":") || (i && (!strcmp(t[i - 1], "*") || !strcmp(t[i - 1], ":"))))
      sb_puts(&sb, t[i]);
    else
      sb_printf(&sb, "%s%s", i ? " " : "", t[i]);
  }
  const char *out = arena_strdup(a, sb.data ? sb.data : "");
  sb_free(&sb);
  return out;
}

/* One parameter from its tokens; *why on failure. */
static bool parse_param(Arena *a, const char *const *t, int n, CucParam *p, const char **why) {
  const char *w[16];
  int nw = 0, stars = 0;
  memset(p, 0, sizeof *p);
  p->name = "";
  for (int i = 0; i < n && strcmp(t[i], "="); i++) {
    if (!strcmp(t[i], "*")) {
      stars++;
    } else if (!strcmp(t[i], "&") || !strcmp(t[i], "[") || !strcmp(t[i], "<") || !strcmp(t[i], "(")) {
      *why = arena_printf(a, "'%s' is not supported (kjit passes pointers to and values of "
                             "scalar types)", t[i]);
      return false;
    } else if (!strcmp(t[i], "std") && i + 3 < n && !strcmp(t[i + 1], ":")) {
      i += 3;                 /* std::size_t */
      if (nw == 16) {         /* a declaration no C type has (found by fuzz/cuc) */
        *why = "too many words in one parameter";
        return false;
      }
      w[nw++] = t[i];
    } else if (!is_qualifier(t[i]) && nw < 16) {
      w[nw++] = t[i];
    }
  }
  if (nw > 1 && !is_builtin_word(w[nw - 1]))
    p->name = w[--nw];
  bool is_void = false;
  if (stars > 1 || !words_dtype(w, nw, &p->dtype, &is_void) || (is_void && !stars)) {
    *why = stars > 1 ? "pointers to pointers are not supported"
                     : arena_printf(a, "type '%s' is not supported; kernels take pointers to, or "
                                       "values of, bool, char, short, int, long, their unsigned "
                                       "forms, int8_t .. uint64_t, size_t, __half, float, double",
                                    join(a, w, nw));
    return false;
  }
  p->pointer = stars == 1;
  p->any = is_void;
  return true;
}

bool cuc_params(Arena *a, const CucDecl *d, const char *const *targs, int ntargs,
                CucParam **out, int *n, const char **why) {
  Vec(const char *) toks = {0};
  for (int i = 0; i < d->ntoks; i++) {
    const char *t = d->toks[i];
    for (int k = 0; k < d->ntparams && k < ntargs; k++)
      if (!strcmp(t, d->tparams[k]))
        t = targs[k];
    vec_push(a, &toks, t);
  }
  Vec(CucParam) ps = {0};
  int start = 0, depth = 0;
  if (toks.len == 1 && !strcmp(toks.data[0], "void"))
    toks.len = 0;              /* k(void) */
  for (int i = 0; i <= toks.len; i++) {
    if (i < toks.len && strchr("(<[", toks.data[i][0]) && !toks.data[i][1]) depth++;
    if (i < toks.len && strchr(")>]", toks.data[i][0]) && !toks.data[i][1]) depth--;
    if (i < toks.len && (depth || strcmp(toks.data[i], ",")))
      continue;
    if (i == start && i == toks.len)
      break;
    CucParam p;
    const char *text = join(a, toks.data + start, i - start);
    if (!parse_param(a, toks.data + start, i - start, &p, why)) {
      *why = arena_printf(a, "parameter %d ('%s'): %s", ps.len + 1, text, *why);
      return false;
    }
    p.text = text;
    p.type = text;
    if (*p.name) {              /* the text without the name (the last token) */
      const char **t = arena_alloc(a, sizeof *t * (size_t)(i - start + 1));
      int nt = 0;
      for (int k = start; k < i && strcmp(toks.data[k], "="); k++)
        if (strcmp(toks.data[k], p.name) != 0)
          t[nt++] = toks.data[k];
      p.type = join(a, t, nt);
    }
    vec_push(a, &ps, p);
    start = i + 1;
  }
  *out = ps.data;
  *n = ps.len;
  return true;
}

bool cuc_parse_type(Arena *a, const char *text, CucParam *out) {
  Source s = {"<type>", text, strlen(text)};
  TokVec v = {0};
  tokenize(a, s.text, &v);
  const char **t = arena_alloc(a, sizeof *t * (size_t)(v.len + 1));
  for (int i = 0; i < v.len; i++)
    t[i] = v.data[i].text;
  const char *why = NULL;
  bool ok = parse_param(a, t, v.len, out, &why);
  out->text = join(a, t, v.len);
  return ok && !*out->name;
}

/* ----------------------------------------------------- name expressions --- */

/* Splits the tokens [from, to) at top-level commas into strings. */
static int split_list(Arena *a, const TokVec *v, int from, int to, const char ***out) {
  Vec(const char *) items = {0};
  int start = from, depth = 0;
  for (int i = from; i <= to; i++) {
    if (i < to && strchr("(<[", v->data[i].text[0])) depth++;
    if (i < to && strchr(")>]", v->data[i].text[0])) depth--;
    if (i < to && (depth || !is(&v->data[i], ",")))
      continue;
    const char **t = arena_alloc(a, sizeof *t * (size_t)(i - start + 1));
    for (int k = start; k < i; k++)
      t[k - start] = v->data[k].text;
    if (i > start)
      vec_push(a, &items, join(a, t, i - start));
    start = i + 1;
  }
  *out = items.data;
  return items.len;
}

/* `void(*)(TYPES)` at i: the TYPES; returns the index after it or -1. */
static int read_fnptr(Arena *a, const TokVec *v, int i, CucName *n) {
  if (i + 5 >= v->len || !is(&v->data[i], "void") || !is(&v->data[i + 1], "(") ||
      !is(&v->data[i + 2], "*") || !is(&v->data[i + 3], ")") || !is(&v->data[i + 4], "("))
    return -1;
  int close = match_close(v, i + 4);
  if (close >= v->len)
    return -1;
  n->ncasts = split_list(a, v, i + 5, close, &n->casts);
  return close + 1;
}

/* [&] [ns::]name [<targs>] from token i to the end; false otherwise. */
static bool read_qualified(Arena *a, const TokVec *v, int i, int end, CucName *n) {
  if (i < end && is(&v->data[i], "&"))
    i++;
  while (i + 3 < end && is_ident(&v->data[i]) && is(&v->data[i + 1], ":") && is(&v->data[i + 2], ":"))
    i += 3;
  if (i >= end || !is_ident(&v->data[i]))
    return false;
  n->name = v->data[i++].text;
  if (i < end && is(&v->data[i], "<")) {
    int close = match_close(v, i);
    if (close != end - 1)
      return false;
    n->ntargs = split_list(a, v, i + 1, close, &n->targs);
    return true;
  }
  return i == end;
}

bool cuc_parse_name(Arena *a, const char *expr, CucName *out) {
  memset(out, 0, sizeof *out);
  out->ncasts = -1;
  TokVec v = {0};
  tokenize(a, expr, &v);
  if (v.len >= 3 && is(&v.data[0], "static_cast") && is(&v.data[1], "<")) {
    int after = read_fnptr(a, &v, 2, out);
    if (after < 0 || after + 1 >= v.len || !is(&v.data[after], ">") || !is(&v.data[after + 1], "(") ||
        match_close(&v, after + 1) != v.len - 1)
      return false;
    return read_qualified(a, &v, after + 2, v.len - 1, out);
  }
  if (v.len >= 1 && is(&v.data[0], "(")) {
    int after = read_fnptr(a, &v, 1, out);
    if (after < 0 || after >= v.len || !is(&v.data[after], ")"))
      return false;
    return read_qualified(a, &v, after + 1, v.len, out);
  }
  return read_qualified(a, &v, 0, v.len, out);
}
