/* modules.c - finding and reading the Python files a kernel file imports.
 *
 * Search path, as Python's sys.path: the kernel file's folder, then the
 * context's search path (kjit_context_set_search_path, `--path`), then
 * KJIT_PATH (colon-separated).  `import a.b` finds a.py, a/__init__.py or a
 * bare folder a/ in the first folder that has one, then b inside a.  numba,
 * numpy, math, cmath, enum, cupy (read as numpy) and scipy are never looked for.  Every file is read and
 * parsed once (keyed by its canonical path, so import cycles end), into the
 * program's arena with its own Source; ir_link_modules then merges them. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lower/modlink.h"
#include "runtime/runtime.h"
#include "common/settings.h"

typedef struct Loader {
  kjit_program *p;
  Arena *a;
  Diags *d;
  Vec(const char *) dirs; /* the search path, in order */
  const char *searched;   /* the same as text, for messages */
  IrModuleVec all;        /* every module made, in order of creation */
  IrModuleVec order;      /* the same, each after the modules it imports */
} Loader;

/* Anything but a folder counts as found: a FIFO or a device where a
 * module should be is then refused by name when it is read, not reported
 * as a missing module. */
static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *join(Loader *L, const char *dir, const char *name) {
  return strcmp(dir, ".") == 0 ? arena_strdup(L->a, name) : arena_printf(L->a, "%s/%s", dir, name);
}

static const char *join_qual(Loader *L, const char *qual, const char *name) {
  return qual[0] ? arena_printf(L->a, "%s.%s", qual, name) : arena_strdup(L->a, name);
}

static const char *dir_of(Loader *L, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return ".";
  return slash == path ? "/" : arena_strndup(L->a, path, (size_t)(slash - path));
}

static const char *canonical(Loader *L, const char *path) {
  char buf[PATH_MAX];
  return realpath(path, buf) ? arena_strdup(L->a, buf) : arena_strdup(L->a, path);
}

/* Modules numba kernels use that kjit knows itself. */
static bool is_known(const char *module) {
  static const char *const known[] = {"numba", "numpy", "math", "cmath", "operator", "enum",
                                      "__future__", "cupy", "scipy"}; /* cupy as numpy, scipy.constants */
  if (strcmp(module, "cuda.bindings") == 0 || strncmp(module, "cuda.bindings.", 14) == 0)
    return true; /* cudaRoundMode, for numba.cuda._internal.cuda_fp8 */
  const char *dot = strchr(module, '.');
  size_t n = dot ? (size_t)(dot - module) : strlen(module);
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (strlen(known[i]) == n && strncmp(known[i], module, n) == 0)
      return true;
  return false;
}

/* ---------------------------------------------------------- modules --- */

static void load_imports(Loader *L, IrModule *m);

static IrModule *find_module(Loader *L, const char *key) {
  for (int i = 0; i < L->all.len; i++)
    if (L->all.data[i]->key && strcmp(L->all.data[i]->key, key) == 0)
      return L->all.data[i];
  return NULL;
}

/* Another file already took qual (two folders both holding util.py reached
 * by different routes): a suffix keeps the merged names apart. */
static const char *unique_qual(Loader *L, const char *qual) {
  const char *q = qual;
  for (int n = 2;; n++) {
    bool taken = false;
    for (int i = 0; i < L->all.len && !taken; i++)
      taken = strcmp(L->all.data[i]->qual, q) == 0;
    if (!taken)
      return q;
    q = arena_printf(L->a, "%s$%d", qual, n);
  }
}

static IrModule *new_module(Loader *L, const char *qual, const char *path, const char *dir,
                            bool pkg) {
  IrModule *m = arena_alloc(L->a, sizeof *m);
  memset(m, 0, sizeof *m);
  m->qual = path ? unique_qual(L, qual) : qual; /* a bare folder defines nothing */
  m->path = path;
  m->dir = dir;
  m->key = canonical(L, path ? path : dir);
  m->is_pkg = pkg;
  vec_push(L->a, &L->all, m);
  return m;
}

/* Reads and parses path into m->ast (an empty module after an error). */
static void parse_file(Loader *L, IrModule *m) {
  char *text = NULL;
  size_t len = 0;
  Source *src = arena_alloc(L->a, sizeof *src);
  memset(src, 0, sizeof *src);
  src->path = m->path;
  if (rt_read_file(m->path, &text, &len, L->d)) {
    src->text = arena_strndup(L->a, text, len);
    src->len = len;
    free(text);
    m->ast = parse_module(L->a, src, L->d);
  }
  if (!m->ast) {
    m->ast = arena_alloc(L->a, sizeof *m->ast);
    memset(m->ast, 0, sizeof *m->ast);
    m->ast->src = src;
  }
}

/* The module of a file or folder, loaded (with what it imports) on first
 * use.  path NULL: a folder without __init__.py (a namespace package). */
static IrModule *get_module(Loader *L, const char *qual, const char *path, const char *dir,
                            bool pkg) {
  IrModule *m = find_module(L, canonical(L, path ? path : dir));
  if (m)
    return m;
  m = new_module(L, qual, path, dir, pkg);
  if (path) {
    parse_file(L, m);
  } else {
    m->ast = arena_alloc(L->a, sizeof *m->ast);
    memset(m->ast, 0, sizeof *m->ast);
  }
  load_imports(L, m);
  vec_push(L->a, &L->order, m);
  return m;
}

/* name inside folder dir: a package name/__init__.py first, then a module
 * name.py, then a bare folder name/ (as Python's path finder). */
static IrModule *find_in(Loader *L, const char *dir, const char *name, const char *qual) {
  const char *sub = join(L, dir, name);
  const char *init = join(L, sub, "__init__.py");
  if (is_file(init))
    return get_module(L, qual, init, sub, true);
  const char *file = arena_printf(L->a, "%s.py", sub);
  if (is_file(file))
    return get_module(L, qual, file, dir, false);
  if (is_dir(sub))
    return get_module(L, qual, NULL, sub, true);
  return NULL;
}

static void add_child(Loader *L, IrModule *pkg, const char *name, IrModule *c) {
  for (int i = 0; i < pkg->children.len; i++)
    if (strcmp(pkg->children.data[i].name, name) == 0)
      return;
  IrModChild ch = {arena_strdup(L->a, name), c};
  vec_push(L->a, &pkg->children, ch);
}

/* Submodule name of package pkg (made its attribute), or NULL. */
static IrModule *find_sub(Loader *L, IrModule *pkg, const char *name) {
  if (!pkg->is_pkg)
    return NULL;
  for (int i = 0; i < pkg->children.len; i++)
    if (strcmp(pkg->children.data[i].name, name) == 0)
      return pkg->children.data[i].mod;
  IrModule *c = find_in(L, pkg->dir, name, join_qual(L, pkg->qual, name));
  if (c)
    add_child(L, pkg, name, c);
  return c;
}

/* ---------------------------------------------------------- imports --- */

static void no_module(Loader *L, const Import *im, const char *name, const char *where) {
  diag_error(L->d, E_MODULE, im->loc,
             arena_printf(L->a, "kjit looked in %s", where), "no module named '%s'", name);
}

/* Walks the dotted rest below m ("b.c" of a.b.c); NULL after an error. */
static IrModule *walk(Loader *L, IrModule *m, const char *rest, const Import *im) {
  while (m && rest && *rest) {
    const char *dot = strchr(rest, '.');
    const char *part = dot ? arena_strndup(L->a, rest, (size_t)(dot - rest)) : rest;
    IrModule *c = find_sub(L, m, part);
    if (!c) {
      no_module(L, im, join_qual(L, m->qual, part), m->dir);
      return NULL;
    }
    m = c;
    rest = dot ? dot + 1 : NULL;
  }
  return m;
}

/* `from m import name` may name a submodule: load it when it exists. */
static void load_from_sub(Loader *L, IrModule *m, const Import *im) {
  if (m && im->name && strcmp(im->name, "*") != 0)
    find_sub(L, m, im->name);
}

/* The package a relative import starts from: one dot is the importing
 * module's own package, each further dot one folder up. */
static IrModule *relative_base(Loader *L, IrModule *m, int dots, const Import *im) {
  const char *dir = m->dir;
  const char *qual = m->is_pkg ? m->qual : "";
  if (!m->is_pkg && strrchr(m->qual, '.'))
    qual = arena_strndup(L->a, m->qual, (size_t)(strrchr(m->qual, '.') - m->qual));
  for (int i = 1; i < dots; i++) {
    if (!strchr(qual, '.')) { /* CPython refuses to climb above the top-level package */
      diag_error(L->d, E_MODULE, im->loc, "a relative import climbs at most to the top-level package",
                 "attempted relative import beyond top-level package ('%.80s')", im->module);
      return NULL;
    }
    dir = join(L, dir, "..");
    const char *dot = strrchr(qual, '.');
    qual = dot ? arena_strndup(L->a, qual, (size_t)(dot - qual)) : "";
  }
  const char *init = join(L, dir, "__init__.py");
  IrModule *base = get_module(L, qual, is_file(init) ? init : NULL, dir, true);
  return base;
}

static void resolve_relative(Loader *L, IrModule *m, const Import *im, IrImportRes *r) {
  int dots = 0;
  while (im->module[dots] == '.')
    dots++;
  IrModule *base = relative_base(L, m, dots, im);
  IrModule *t = base ? walk(L, base, im->module + dots, im) : NULL;
  if (!t) {
    r->kind = IMP_EXTERNAL; /* reported; the names stay unbound */
    return;
  }
  r->kind = IMP_USER;
  r->target = t;
  load_from_sub(L, t, im);
}

static IrModule *find_top(Loader *L, const char *name) {
  for (int i = 0; i < L->dirs.len; i++) {
    IrModule *m = find_in(L, L->dirs.data[i], name, name);
    if (m)
      return m;
  }
  return NULL;
}

static void resolve_absolute(Loader *L, const Import *im, IrImportRes *r) {
  const char *dot = strchr(im->module, '.');
  const char *first = dot ? arena_strndup(L->a, im->module, (size_t)(dot - im->module)) : im->module;
  IrModule *top = find_top(L, first);
  if (!top) {
    r->kind = IMP_MISSING;
    r->searched = L->searched;
    return;
  }
  IrModule *t = walk(L, top, dot ? dot + 1 : NULL, im);
  if (!t) {
    r->kind = IMP_EXTERNAL;
    return;
  }
  r->kind = IMP_USER;
  bool bare = !im->name && dot && strcmp(im->alias, first) == 0; /* import a.b binds a */
  r->target = bare ? top : t;
  load_from_sub(L, t, im);
}

static void load_imports(Loader *L, IrModule *m) {
  int n = m->ast->imports.len;
  m->res = arena_alloc(L->a, sizeof *m->res * (size_t)(n ? n : 1));
  memset(m->res, 0, sizeof *m->res * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    const Import *im = &m->ast->imports.data[i];
    if (im->module[0] == '.')
      resolve_relative(L, m, im, &m->res[i]);
    else if (is_known(im->module))
      m->res[i].kind = IMP_EXTERNAL;
    else
      resolve_absolute(L, im, &m->res[i]);
  }
}

/* -------------------------------------------------------- the driver --- */

static void add_dirs(Loader *L, const char *list) {
  for (const char *s = list; s && *s;) {
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    if (n)
      vec_push(L->a, &L->dirs, arena_strndup(L->a, s, n));
    s = colon ? colon + 1 : s + n;
  }
}

static void make_search_path(Loader *L, const char *main_dir) {
  vec_push(L->a, &L->dirs, main_dir);
  add_dirs(L, L->p->ctx->search_path);
  add_dirs(L, rt_setting(RT_SET_PATH));
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; i < L->dirs.len; i++)
    sb_printf(&sb, "%s%s", i ? ", " : "", L->dirs.data[i]);
  L->searched = arena_strdup(L->a, sb.data ? sb.data : "");
  sb_free(&sb);
}

/* Only a program that imports something other than numba & co. is linked:
 * others lower exactly as a single file. */
static bool needs_link(const IrModuleVec *order) {
  for (int i = 0; i < order->len; i++) {
    const IrModule *m = order->data[i];
    for (int j = 0; j < m->ast->imports.len; j++)
      if (m->res[j].kind != IMP_EXTERNAL)
        return true;
  }
  return order->len > 1;
}

bool rt_load_modules(kjit_program *p, bool from_file, Diags *d) {
  Loader L = {.p = p, .a = &p->arena, .d = d};
  int before = d->nerrors;
  const char *dir = from_file ? dir_of(&L, p->src.path) : ".";
  make_search_path(&L, dir);
  IrModule *main = new_module(&L, "", from_file ? p->src.path : NULL, dir, false);
  if (!from_file)
    main->key = NULL; /* source text: no file to be imported as */
  main->ast = p->ir.ast;
  load_imports(&L, main);
  vec_push(L.a, &L.order, main);
  if (d->nerrors != before)
    return false;
  if (!needs_link(&L.order))
    return true;
  return ir_link_modules(&p->ir, &L.order, d);
}
