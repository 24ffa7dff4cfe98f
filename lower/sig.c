/* sig.c - signatures and type expressions: "void(float32[::1], int64)",
 * decorator arguments, parameter annotations.
 *
 * A signature string is parsed by the frontend's parse_expression over its
 * own Source ("<signature>"); when it came from a decorator's string literal
 * its errors are then moved into the literal in the .py file.  Decorator
 * expressions are read from the module's AST as they are.  Type
 * expressions are dtype names (bare or qualified: numba.float32, nb.f4,
 * np.float32) and arrays written with slices: [:] any layout, [::1]
 * C-contiguous on the last dimension (on the first: Fortran order, typed as
 * A), 1 to 4 dimensions; tuples as types.UniTuple(dtype, n) and
 * types.Tuple((t1, t2)). */
#include <ctype.h>
#include <stdio.h>

#include "lower/lower_internal.h" /* ir_closest */

/* Canonical spellings offered by "did you mean". */
static const char *const suggestions[] = {
    "int8",    "int16",   "int32",     "int64",      "uint8", "uint16", "uint32",
    "uint64",  "float16", "float32",   "float64",    "complex64", "complex128",
    "boolean", "bool_",   "void",      "intp",       "uintp", "f4",     "f8",
    "i4",      "i8",      "u4",        "u8",
};

static const char *did_you_mean(Arena *a, const char *name) {
  const char *best = ir_closest(name, suggestions, (int)(sizeof suggestions / sizeof *suggestions));
  return best ? arena_printf(a, "did you mean '%s'?", best) : NULL;
}

static const char *article(const char *noun) {
  return strchr("aeiouAEIOU", noun[0]) ? "an" : "a";
}

static bool fail_expected_type(Diags *d, const Node *n) {
  const char *what = ast_kind_name(n->kind);
  diag_error(d, E_SIG_SYNTAX, n->loc, NULL, "expected a type, got %s %s", article(what), what);
  return false;
}

/* ------------------------------------------------------ module values -- */

/* The value of the last module-level assignment to name before the
 * assignment numbered *at (all of them for m->globals.len), or NULL; *at
 * becomes that assignment's number, so a name in its value is read as the
 * module had it then (`f = f` rebinds the f before it, as Python runs it). */
static const Node *module_value(const IrProgram *p, const char *name, int *at) {
  const Module *m = p->ast;
  for (int i = m ? *at - 1 : -1; i >= 0; i--)
    if (strcmp(m->globals.data[i].name, name) == 0) {
      *at = i;
      return m->globals.data[i].value;
    }
  return NULL;
}

const Node *ir_sig_resolve(const IrProgram *p, const Node *n) {
  int at = p->ast ? p->ast->globals.len : 0;
  for (int k = 0; n && n->kind == ND_NAME && n->name && k < 8; k++) {
    const Node *v = module_value(p, n->name, &at);
    if (!v || v == n)
      break;
    n = v;
  }
  return n;
}

/* The canonical path of a name or attribute chain rooted at an import
 * ("f64" bound by `from numba.cuda import float64 as f64`), or NULL. */
static const char *import_path(IrProgram *p, const Node *n) {
  if (n->kind == ND_NAME && n->name)
    return ir_import_target(p, p->arena, n->name);
  if (n->kind != ND_ATTR || !n->name || !n->lhs)
    return NULL;
  const char *base = import_path(p, n->lhs);
  return base ? arena_printf(p->arena, "%s.%s", base, n->name) : NULL;
}

/* --------------------------------------------------------------- dtypes -- */

/* NAME | module '.' NAME, where the module path is any chain of names
 * (numba, numba.types, numba.cuda.types, nb, np, ...: imports may alias
 * them, and a name may be bound by `from numba.cuda import float32 as f4`). */
static bool dtype_from_ast(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  if (ir_is_record_expr(p, n))
    return (*out = ir_record_from_ast(p, n, d)) != NULL;
  const Node *m = n;
  while (m->kind == ND_ATTR && m->lhs)
    m = m->lhs;
  if (m->kind != ND_NAME || !n->name)
    return fail_expected_type(d, n);
  const char *path = import_path(p, n);
  const Type *t = path ? ir_path_dtype(path) : NULL;
  if (!t)
    t = ty_from_name(n->name);
  if (!t && !path && n->kind == ND_NAME) { /* nbtype = float32: an alias held in the module */
    const Node *v = ir_sig_resolve(p, n);
    if (v != n && (v->kind == ND_NAME || v->kind == ND_ATTR) && ir_sig_resolve(p, v) == v)
      return dtype_from_ast(p, v, out, d);
  }
  if (!t) {
    diag_error(d, E_SIG_UNKNOWN_TYPE, n->loc, did_you_mean(p->arena, n->name),
               "unknown type '%s'", n->name);
    return false;
  }
  *out = t;
  return true;
}

/* --------------------------------------------------------------- arrays -- */

static bool is_one(const Node *n) { return n && n->kind == ND_INT && !n->big && n->ival == 1; }

/* Each dimension is ':' or '::1'.  Returns 0 for ':', 1 for '::1', -1 after
 * an error. */
static int slice_kind(const Node *s, Diags *d) {
  if (s->kind == ND_SLICE && !s->lhs && !s->rhs && (!s->third || is_one(s->third)))
    return s->third ? 1 : 0;
  diag_error(d, E_SIG_SLICE, s->loc,
             "write float32[:] (any layout) or float32[::1] (C-contiguous)",
             "malformed array type: expected ':' or '::1'");
  return -1;
}

/* Layout from the '::1' positions: last dimension -> C; first dimension of
 * a multi-dimensional array (Fortran order) -> A, which is what kjit
 * specializes on; anywhere else is an error. */
static bool array_layout(const Node *const *dims, int ndim, Layout *out, Diags *d) {
  int kinds[TY_MAX_NDIM];
  for (int i = 0; i < ndim; i++)
    if ((kinds[i] = slice_kind(dims[i], d)) < 0)
      return false;
  *out = kinds[ndim - 1] ? LAYOUT_C : LAYOUT_A;
  for (int i = 0; i < ndim - 1; i++) {
    if (!kinds[i] || (i == 0 && !kinds[ndim - 1]))
      continue;
    diag_error(d, E_SIG_SLICE, dims[i]->loc, NULL,
               "malformed array type: only the last dimension can be '::1'");
    return false;
  }
  return true;
}

/* dtype '[' slice {',' slice} ']' */
static bool array_from_ast(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  const Type *elem;
  if (!dtype_from_ast(p, n->lhs, &elem, d))
    return false;
  if (!ty_is_scalar(elem) && elem->kind != TY_RECORD) {
    char b[64];
    diag_error(d, E_SIG_SYNTAX, n->lhs->loc, NULL, "arrays of %s are not supported",
               ty_name(elem, b, sizeof b));
    return false;
  }
  const Node *one[1] = {n->rhs};
  const Node *const *dims = one;
  int ndim = 1;
  if (n->rhs && n->rhs->kind == ND_TUPLE) {
    dims = (const Node *const *)n->rhs->args.data;
    ndim = n->rhs->args.len;
  }
  if (!n->rhs || ndim < 1)
    return fail_expected_type(d, n);
  if (ndim > TY_MAX_NDIM) {
    diag_error(d, E_SIG_DIMS, n->loc, NULL, "arrays have at most %d dimensions, got %d", TY_MAX_NDIM,
               ndim);
    return false;
  }
  Layout layout;
  if (!array_layout(dims, ndim, &layout, d))
    return false;
  *out = ty_array(p->types, elem, ndim, layout);
  return *out != NULL;
}

static bool is_named(const Node *n, const char *name) {
  return n && (n->kind == ND_NAME || n->kind == ND_ATTR) && n->name && strcmp(n->name, name) == 0;
}

/* A positional argument of a call, or its keyword `kw`; NULL if absent. */
static const Node *call_arg(const Node *call, int pos, const char *kw) {
  for (int i = 0; i < call->args.len; i++) {
    const Node *a = call->args.data[i];
    if (a->kind == ND_KEYWORD) {
      if (a->name && strcmp(a->name, kw) == 0)
        return a->lhs;
    } else if (i == pos) {
      return a;
    }
  }
  return NULL;
}

/* types.Array(dtype, ndim, layout): layout 'C' is C-contiguous; 'A' and
 * 'F' (Fortran order) are typed as A, as kjit specializes on them. */
static bool array_call(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  const Node *dt = call_arg(n, 0, "dtype"), *nd = call_arg(n, 1, "ndim");
  const Node *lay = call_arg(n, 2, "layout"), *ro = call_arg(n, 3, "readonly");
  const Type *elem;
  if (!dt || !nd || !lay) {
    diag_error(d, E_SIG_SYNTAX, n->loc, "write it as types.Array(types.float32, 2, 'C')",
               "types.Array takes a dtype, a number of dimensions and a layout");
    return false;
  }
  if (!dtype_from_ast(p, dt, &elem, d))
    return false;
  nd = ir_sig_resolve(p, nd);
  if (nd->kind != ND_INT || nd->ival < 1 || nd->ival > TY_MAX_NDIM) {
    diag_error(d, E_SIG_DIMS, nd->loc, NULL, "types.Array needs 1 to %d dimensions as a literal",
               TY_MAX_NDIM);
    return false;
  }
  lay = ir_sig_resolve(p, lay);
  const char *l = lay->kind == ND_STR && lay->str ? lay->str : "";
  if (strcmp(l, "C") && strcmp(l, "A") && strcmp(l, "F")) {
    diag_error(d, E_SIG_SLICE, lay->loc, NULL, "array layout must be 'C', 'F' or 'A'");
    return false;
  }
  if (ro && !(ro->kind == ND_BOOL && ro->ival == 0)) {
    diag_error(d, E_SIG_SYNTAX, ro->loc, "pass a writable array",
               "readonly array arguments are not supported");
    return false;
  }
  if (!ty_is_scalar(elem) && elem->kind != TY_RECORD)
    return fail_expected_type(d, dt);
  *out = ty_array(p->types, elem, (int)nd->ival, strcmp(l, "C") == 0 ? LAYOUT_C : LAYOUT_A);
  return true;
}

/* Element types of a tuple type: scalars, arrays or tuples of them. */
static bool tuple_elem(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  if (!ir_type_from_ast(p, n, out, d))
    return false;
  if (ty_is_scalar(*out) || (*out)->kind == TY_TUPLE || (*out)->kind == TY_ARRAY)
    return true;
  char b[64];
  diag_error(d, E_SIG_SYNTAX, n->loc, "tuple arguments hold numbers, arrays or tuples of them",
             "tuples of %s are not supported", ty_name(*out, b, sizeof b));
  return false;
}

/* types.UniTuple(dtype, count): count elements of one type. */
static bool unituple_call(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  const Node *dt = call_arg(n, 0, "dtype"), *cnt = call_arg(n, 1, "count");
  const Type *elem;
  if (!dt || !cnt || n->args.len != 2) {
    diag_error(d, E_SIG_SYNTAX, n->loc, "write it as types.UniTuple(types.float64, 3)",
               "types.UniTuple takes an element type and a count");
    return false;
  }
  if (!tuple_elem(p, dt, &elem, d))
    return false;
  cnt = ir_sig_resolve(p, cnt);
  if (cnt->kind != ND_INT || cnt->big || cnt->ival < 1 || cnt->ival > 16) {
    diag_error(d, E_SIG_SYNTAX, cnt->loc, NULL, "types.UniTuple needs 1 to 16 elements as a literal");
    return false;
  }
  *out = ty_unituple(p->types, elem, (int)cnt->ival);
  return *out != NULL;
}

/* types.Tuple((t1, t2, ...)): one sequence of element types (a tuple or a
 * list; () is the empty tuple), as numba.types spells it; all equal gives
 * the UniTuple. */
static bool tuple_call(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  const Node *seq = n->args.len == 1 ? ir_sig_resolve(p, n->args.data[0]) : NULL;
  if (!seq || (seq->kind != ND_TUPLE && seq->kind != ND_LIST) || seq->args.len > 16) {
    diag_error(d, E_SIG_SYNTAX, n->loc, "write it as types.Tuple((types.int64, types.float32))",
               "types.Tuple takes one tuple of at most 16 element types");
    return false;
  }
  const Type *el[16];
  for (int i = 0; i < seq->args.len; i++)
    if (!tuple_elem(p, seq->args.data[i], &el[i], d))
      return false;
  *out = ty_tuple(p->types, el, seq->args.len);
  return *out != NULL;
}

/* types.CPointer(dtype): a raw pointer to numbers (Numba's CPointer; the
 * addrspace argument is Numba's internal and not taken). */
static bool cpointer_call(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  const Node *dt = call_arg(n, 0, "dtype");
  const Type *elem;
  if (!dt || n->args.len != 1) {
    diag_error(d, E_SIG_SYNTAX, n->loc, "write it as types.CPointer(types.float32)",
               "types.CPointer takes one dtype");
    return false;
  }
  if (!ir_type_from_ast(p, dt, &elem, d))
    return false;
  if (!ty_is_number(elem)) {
    char b[64];
    diag_error(d, E_UNSUPPORTED, dt->loc, "point to numbers: types.CPointer(types.float32)",
               "raw pointers to %s are not supported", ty_name(elem, b, sizeof b));
    return false;
  }
  *out = ty_ptr(p->types, elem);
  return *out != NULL;
}

bool ir_type_from_ast(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  *out = NULL;
  n = ir_sig_resolve(p, n);
  if (!n)
    return false;
  if (is_named(n, "voidptr") || (n->kind == ND_CALL && is_named(n->lhs, "voidptr"))) {
    diag_error(d, E_UNSUPPORTED, n->loc, "give the pointee's type: types.CPointer(types.float32)",
               "untyped raw pointers (types.voidptr) are not supported");
    return false;
  }
  if (n->kind == ND_NAME || n->kind == ND_ATTR || ir_is_record_expr(p, n))
    return dtype_from_ast(p, n, out, d);
  if (n->kind == ND_SUBSCRIPT && n->lhs)
    return array_from_ast(p, n, out, d);
  if (n->kind == ND_CALL && is_named(n->lhs, "Array"))
    return array_call(p, n, out, d);
  if (n->kind == ND_CALL && is_named(n->lhs, "UniTuple"))
    return unituple_call(p, n, out, d);
  if (n->kind == ND_CALL && is_named(n->lhs, "Tuple"))
    return tuple_call(p, n, out, d);
  if (n->kind == ND_CALL && is_named(n->lhs, "CPointer"))
    return cpointer_call(p, n, out, d);
  return fail_expected_type(d, n);
}

/* ----------------------------------------------------------- signatures -- */

static bool param_type(IrProgram *p, const Node *n, const Type **out, Diags *d) {
  if (!ir_type_from_ast(p, n, out, d))
    return false;
  if ((*out)->kind != TY_VOID) /* none: an argument passed as None (Numba's none) */
    return true;
  char b[32];
  diag_error(d, E_SIG_SYNTAX, n->loc, NULL, "'%s' is not a parameter type",
             ty_name(*out, b, sizeof b));
  return false;
}

static bool params_from_list(IrProgram *p, const NodeList *args, Signature *out, Diags *d) {
  out->nparams = args->len;
  out->params = arena_alloc(p->arena, sizeof *out->params * (size_t)(args->len + 1));
  bool ok = true;
  for (int i = 0; i < args->len; i++)
    ok = param_type(p, args->data[i], &out->params[i], d) && ok;
  return ok;
}

/* numba.core.typing.signature(ret, *args): Numba's other spelling of ret(*args). */
static bool signature_call(IrProgram *p, const Node *n, Signature *out, Diags *d) {
  NodeList rest = {n->args.data + 1, n->args.len - 1, n->args.len - 1};
  bool ok = ir_type_from_ast(p, n->args.data[0], &out->ret, d);
  return params_from_list(p, &rest, out, d) && ok;
}

/* ret '(' params ')' | '(' params ')' (a tuple: return type inferred)
 * | 'signature' '(' ret (',' param)* ')' */
static bool signature_from_node(IrProgram *p, const Node *n, Signature *out, Diags *d) {
  memset(out, 0, sizeof *out);
  out->loc = n->loc;
  n = ir_sig_resolve(p, n);
  if (n->kind == ND_STR)
    return ir_signature_from_ast(p, n, out, d);
  if (n->kind == ND_TUPLE)
    return params_from_list(p, &n->args, out, d);
  if (n->kind != ND_CALL || !n->lhs) {
    diag_error(d, E_SIG_SYNTAX, n->loc, "write it as 'void(float32[:], int64)'",
               "expected a signature, got %s %s", article(ast_kind_name(n->kind)),
               ast_kind_name(n->kind));
    return false;
  }
  if (n->args2.len > 0 || (n->args.len > 0 && n->args.data[n->args.len - 1]->kind == ND_KEYWORD)) {
    diag_error(d, E_SIG_SYNTAX, n->loc, NULL, "keyword arguments in a signature");
    return false;
  }
  for (int i = 0; i < n->args.len; i++)
    if (n->args.data[i]->kind == ND_KEYWORD) {
      diag_error(d, E_SIG_SYNTAX, n->args.data[i]->loc, NULL, "keyword arguments in a signature");
      return false;
    }
  if (is_named(n->lhs, "signature") && n->args.len > 0) /* signature(ret, *args) */
    return signature_call(p, n, out, d);
  bool ok = ir_type_from_ast(p, n->lhs, &out->ret, d);
  return params_from_list(p, &n->args, out, d) && ok;
}

static bool blank(const Source *s) {
  for (size_t i = 0; i < s->len; i++)
    if (!isspace((unsigned char)s->text[i]))
      return false;
  return true;
}

bool ir_parse_signature(IrProgram *p, const Source *text, Signature *out, Diags *d) {
  memset(out, 0, sizeof *out);
  if (!text || !text->text || blank(text)) {
    SrcLoc loc = {text && text->text ? text : NULL, 1, 1, 1};
    diag_error(d, E_SIG_EMPTY, loc, "write it as 'void(float32[:], int64)'", "empty signature");
    return false;
  }
  int before = d->nerrors;
  Node *n = parse_expression(p->arena, text, d);
  if (!n || d->nerrors != before)
    return false;
  return signature_from_node(p, n, out, d);
}

/* Move diagnostics from index `from` on that point into the signature text
 * `src` back into the .py file: into the literal when its text is verbatim
 * (n->bodycol), else onto the whole literal. */
static void relocate_diags(Diags *d, int from, const Source *src, const Node *lit) {
  for (int i = from; i < d->list.len; i++) {
    SrcLoc *l = &d->list.data[i].loc;
    if (l->src != src)
      continue;
    if (lit->bodycol > 0 && l->line == 1) {
      l->src = lit->loc.src;
      l->line = lit->loc.line;
      l->col = lit->bodycol + l->col - 1;
    } else {
      *l = lit->loc;
    }
  }
}

bool ir_signature_from_ast(IrProgram *p, const Node *n, Signature *out, Diags *d) {
  memset(out, 0, sizeof *out);
  if (!n)
    return false;
  if (n->kind != ND_STR)
    return signature_from_node(p, n, out, d);
  /* a string literal: parsed on its own, then its errors are moved into
   * the literal in the .py file */
  Source *src = arena_alloc(p->arena, sizeof *src);
  src->path = "<signature>";
  src->text = n->str ? n->str : "";
  src->len = n->str ? n->strlen : 0;
  int from = d->list.len;
  bool ok = ir_parse_signature(p, src, out, d);
  relocate_diags(d, from, src, n);
  return ok;
}
