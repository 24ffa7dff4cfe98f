/* infer_ops.c - the typing rule of every kjit IR operation.
 *
 * Called by the fixed point in typing/infer.c (silent passes, then one report
 * pass) and again by typing/infer_cast.c to learn what each operand must be
 * converted to.  A rule returns NULL while an operand is still unknown, so
 * inference simply waits for it; errors are raised only when every operand
 * is known.  Types follow Numba 0.68 / numba-cuda 0.30 (ir/type.c and
 * docs/language.md); choices where Numba was unclear are marked "choice". */
#include <stdio.h>

#include "ir/dispatch.h"
#include "typing/typing_internal.h"

/* Type of operand k, NULL when missing or not yet inferred. */
static const Type *at(const Infer *inf, const Inst *in, int k) {
  if (k < 0 || k >= in->nargs || !in->args)
    return NULL;
  int a = in->args[k];
  if (a < 0 || a >= inf->f->insts.len)
    return NULL;
  const Type *t = inf->f->insts.data[a].type;
  return (t && t->kind != TY_UNKNOWN) ? t : NULL;
}

static const Inst *arg_inst(const Infer *inf, const Inst *in, int k) {
  return &inf->f->insts.data[in->args[k]];
}

static void set_need(const Type **need, int k, const Type *t) {
  if (need)
    need[k] = t;
}

static bool intlike(const Type *t) { return ty_is_int(t) || (t && t->kind == TY_BOOL); }
static bool realnum(const Type *t) { return ty_is_number(t) && !ty_is_complex(t); }

#define TN(t) ir_infer_tname(inf, (t))

/* ------------------------------------------------------------ operators -- */

static const char *op_symbol(int op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_SUB: return "-";
  case OP_MUL: return "*";
  case OP_TRUEDIV: return "/";
  case OP_FLOORDIV: return "//";
  case OP_MOD: return "%";
  case OP_POW: return "**";
  case OP_LSHIFT: return "<<";
  case OP_RSHIFT: return ">>";
  case OP_BITAND: return "&";
  case OP_BITOR: return "|";
  case OP_BITXOR: return "^";
  case OP_NEG: return "-";
  case OP_POS: return "+";
  case OP_INVERT: return "~";
  case OP_NOT: return "not";
  case OP_EQ: return "==";
  case OP_NE: return "!=";
  case OP_LT: return "<";
  case OP_LE: return "<=";
  case OP_GT: return ">";
  case OP_GE: return ">=";
  default: return ir_op_info[op].name;
  }
}

static bool is_bitwise(int op) {
  return op == OP_BITAND || op == OP_BITOR || op == OP_BITXOR || op == OP_LSHIFT ||
         op == OP_RSHIFT || op == OP_INVERT;
}

static const char *operand_hint(int op, const Type *a, const Type *b) {
  if ((a && a->kind == TY_TUPLE && !ty_is_vector(a)) || (b && b->kind == TY_TUPLE && !ty_is_vector(b)))
    return "a tuple is not a number: index one element (t[0])";
  if ((a && a->kind == TY_ARRAY) || (b && b->kind == TY_ARRAY))
    return "whole-array arithmetic is not supported in kernels; index the array (a[i])";
  if ((a && a->kind == TY_STR) || (b && b->kind == TY_STR))
    return "strings can only be printed";
  if ((a && a->kind == TY_NONE) || (b && b->kind == TY_NONE))
    return "None is not a number (a variable that is None on some paths only, Numba's "
           "Optional, is not supported)";
  if (ty_is_complex(a) || ty_is_complex(b))
    return "complex numbers have no order, floor division or bitwise operators; "
           "use abs(z), z.real or z.imag";
  if ((ty_is_float(a) || ty_is_float(b)) && is_bitwise(op))
    return "bitwise operators need integers; convert with int(x)";
  return NULL;
}

static bool fits(int64_t v, const Type *t) {
  int bits = ty_bits(t);
  if (ty_is_signed(t))
    return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
  return v >= 0 && (bits == 64 || v < (INT64_C(1) << bits));
}

/* typing="narrow": a literal adopts the type of the operand it meets (an
 * int literal that fits a <=32-bit int, a float literal meeting float32 or
 * float16), so index arithmetic stays in 32 bits. */
static const Type *narrow_literal(const Infer *inf, const Inst *in, int k,
                                  const Type *t, const Type *other) {
  const Inst *def = arg_inst(inf, in, k);
  if (def->op == OP_CONST_INT && t == TY_I64_T && ty_is_int(other) &&
      ty_bits(other) <= 32 && fits(def->ival, other))
    return other;
  if (def->op == OP_CONST_FLOAT && t == TY_F64_T && ty_is_float(other) && ty_bits(other) < 64)
    return other;
  return t;
}

/* typing="narrow": ints of at most 32 bits combine like C's usual
 * conversions (at least 32 bits) instead of widening to 64. */
static const Type *narrow_result(Infer *inf, int op, const Type *a, const Type *b,
                                 const Type *r, const Type **operand) {
  if (!ty_is_int(a) || !ty_is_int(b) || ty_bits(a) > 32 || ty_bits(b) > 32 ||
      op == OP_TRUEDIV || (op >= OP_EQ && op <= OP_GE))
    return r;
  const Type *u = ty_unify(inf->tt, a, b);
  if (ty_bits(u) < 32)
    u = ty_int(32, ty_is_signed(u));
  *operand = u;
  return u;
}

static void binop_operands(Infer *inf, const Inst *in, const Type **a, const Type **b) {
  if (!inf->narrow)
    return;
  const Type *na = narrow_literal(inf, in, 0, *a, *b);
  const Type *nb = narrow_literal(inf, in, 1, *b, *a);
  *a = na;
  *b = nb;
}

static const Type *type_binary(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = at(inf, in, 0), *b = at(inf, in, 1);
  if (!a || !b)
    return NULL;
  const Type *ea = a, *eb = b, *operand = NULL;
  binop_operands(inf, in, &ea, &eb);
  const Type *r = ty_binop(in->op, ea, eb, &operand);
  if (r && inf->narrow)
    r = narrow_result(inf, in->op, ea, eb, r, &operand);
  if (!r)
    return ir_infer_fail(inf, idx, E_TY_OPERANDS, operand_hint(in->op, a, b),
                         "unsupported operand types for %s: '%s' and '%s'",
                         op_symbol(in->op), TN(a), TN(b));
  set_need(need, 0, operand);
  /* float ** int keeps the exponent an integer (ops.h POW) */
  bool int_exp = in->op == OP_POW && ty_is_float(operand) && intlike(eb);
  set_need(need, 1, int_exp ? TY_I64_T : operand);
  return r;
}

static const Type *type_compare(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = at(inf, in, 0), *b = at(inf, in, 1);
  if (!a || !b)
    return NULL;
  const Type *ea = a, *eb = b, *operand = NULL;
  binop_operands(inf, in, &ea, &eb);
  const Type *r = ty_binop(in->op, ea, eb, &operand);
  bool eq = in->op == OP_EQ || in->op == OP_NE;
  if (!r && eq && a->kind == TY_TUPLE && b->kind == TY_TUPLE && !ty_is_vector(a) &&
      !ty_is_vector(b)) {
    /* tuples compare element-wise (a.shape == b.shape) */
    operand = ty_unify(inf->tt, a, b);
    r = operand ? TY_BOOL_T : NULL;
  }
  if (!r)
    return ir_infer_fail(inf, idx, E_TY_OPERANDS, operand_hint(in->op, a, b),
                         "unsupported operand types for %s: '%s' and '%s'",
                         op_symbol(in->op), TN(a), TN(b));
  set_need(need, 0, operand);
  set_need(need, 1, operand);
  return r;
}

static const Type *type_unary(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = at(inf, in, 0);
  if (!a)
    return NULL;
  const Type *r = ty_unop(in->op, a);
  if (!r)
    return ir_infer_fail(inf, idx, E_TY_OPERANDS, operand_hint(in->op, a, NULL),
                         "unsupported operand type for %s: '%s'", op_symbol(in->op), TN(a));
  /* not: the operand becomes its truthiness; - + ~: the result type, except
   * that ~ of a narrow unsigned int inverts its own bits and then widens
   * (Numba's int_invert_impl: ~uint8(1) is 254, not 2**64 - 2) */
  bool narrow_invert = in->op == OP_INVERT && ty_is_int(a) && !ty_is_signed(a) &&
                       ty_bits(a) < ty_bits(r);
  set_need(need, 0, in->op == OP_NOT ? TY_BOOL_T : narrow_invert ? a : r);
  return r;
}

/* ------------------------------------------------------- scalar builtins -- */

static bool castable(const Type *from, const Type *to) {
  if (from == to)
    return true;
  if (ty_is_number(from) && ty_is_number(to))
    return !ty_is_complex(from) || ty_is_complex(to); /* complex -> real: no */
  if (from->kind == TY_ARRAY && to->kind == TY_ARRAY)
    return from->elem == to->elem && from->ndim == to->ndim &&
           (to->layout == LAYOUT_A || from->layout == LAYOUT_C) && (!from->readonly || to->readonly);
  return false;
}

static const Type *type_cast(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *to = in->tyimm;
  if (!to)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: cast without a type");
  const Type *a = at(inf, in, 0);
  if (!a)
    return NULL;
  if (!castable(a, to))
    return ir_infer_fail(inf, idx, E_TY_CONVERT, NULL, "cannot convert %s to %s", TN(a), TN(to));
  /* int()/float() builtins (ival 1) keep an int / float operand's type. */
  if (in->ival == 1 && ((ty_is_int(to) && ty_is_int(a)) || (ty_is_float(to) && ty_is_float(a))))
    return a;
  return to;
}

static const Type *type_truth(Infer *inf, int idx, int k, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = at(inf, in, k);
  if (!a)
    return NULL;
  if (!ty_is_number(a))
    return ir_infer_fail(inf, idx, E_TY_COND,
                         a->kind == TY_ARRAY ? "compare elements or a.size instead"
                         : ty_is_fp8(a)      ? "numba-cuda 0.30 cannot lower bool() of an fp8 value: "
                                               "test float32(v) != 0"
                                             : NULL,
                         "cannot use %s as a condition", TN(a));
  set_need(need, k, TY_BOOL_T);
  return TY_BOOL_T;
}

static const Type *type_select(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = at(inf, in, 1), *b = at(inf, in, 2);
  if (!type_truth(inf, idx, 0, need) || !a || !b)
    return NULL;
  const Type *r = ty_unify(inf->tt, a, b);
  if (!r)
    return ir_infer_fail(inf, idx, E_TY_UNIFY, NULL,
                         "cannot unify %s and %s in a conditional expression", TN(a), TN(b));
  set_need(need, 1, r);
  set_need(need, 2, r);
  return r;
}

/* ---------------------------------------------------------------- tuples -- */

static const Type *type_tuple(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type **el = arena_alloc(inf->c->arena, sizeof *el * (size_t)(in->nargs + 1));
  for (int k = 0; k < in->nargs; k++)
    if (!(el[k] = at(inf, in, k)))
      return NULL;
  const IrNamedTuple *nt = in->data; /* Point(1.0, 2.0): the class's type */
  return nt ? ty_named_tuple(inf->tt, nt->tname, (const char *const *)nt->fields, el, in->nargs)
            : ty_tuple(inf->tt, el, in->nargs);
}

static const Type *type_tuple_get(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *t = at(inf, in, 0);
  if (!t)
    return NULL;
  if (in->str && t->kind == TY_RECORD) { /* r.x of a record with a field x */
    in->op = OP_REC_GET;
    return ir_infer_rec_get(inf, idx);
  }
  if (in->str && t->kind == TY_TUPLE && t->fields) { /* p.x of a namedtuple */
    int k = ty_field_index(t, in->str);
    if (k < 0)
      return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "%s has no attribute '%s'", TN(t), in->str);
    in->ival = k;
    return t->elems[k];
  }
  if (in->str && in->ival < 0) /* a field name that is not this type's */
    return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "%s has no attribute '%s'", TN(t), in->str);
  /* v.x (str names the attribute) only on vector types, which have no
   * other element access (Numba: not subscriptable, not iterable) */
  if (in->str && (!ty_is_vector(t) || in->ival >= t->nelems))
    return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "%s has no attribute '%s'", TN(t), in->str);
  if (!in->str && ty_is_vector(t))
    return ir_infer_fail(inf, idx, E_TY_INDEX, "use its attributes .x .y .z .w",
                         "%s is not subscriptable or iterable", TN(t));
  if (t->kind != TY_TUPLE)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "cannot take element %lld of %s (not a tuple)",
                         (long long)in->ival, TN(t));
  if (in->ival < 0 && in->ival >= -(int64_t)t->nelems)
    in->ival += t->nelems; /* t[-1]: normalized once, so codegen sees 0..n-1 */
  if (in->ival < 0 || in->ival >= t->nelems)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "tuple index %lld out of range for %s",
                         (long long)in->ival, TN(t));
  return t->elems[in->ival];
}

/* ---------------------------------------------------------------- arrays -- */

static const char *plural(int n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* Check the indices args[first..] of an access to array arr: one int per
 * dimension, or one tuple of ints of length ndim.  Returns 1 when valid, 0
 * while some index is unknown, -1 after an error. */
static int check_indices(Infer *inf, int idx, int first, const Type *arr, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int n = in->nargs - first;
  const Type *t0 = at(inf, in, first);
  if (n == 1 && !t0)
    return 0;
  if (n == 1 && t0->kind == TY_TUPLE) {
    if (t0->nelems != arr->ndim) {
      ir_infer_fail(inf, idx, E_TY_INDEX, "index with the tuple's elements: a[t[0]] for a row",
                    "%s needs %d %s, got %d", TN(arr), arr->ndim,
                    plural(arr->ndim, "index", "indices"), t0->nelems);
      return -1;
    }
    for (int i = 0; i < t0->nelems; i++)
      if (!ty_is_int(t0->elems[i])) {
        ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "array index must be an integer, not %s",
                      TN(t0->elems[i]));
        return -1;
      }
    set_need(need, first, ty_unituple(inf->tt, TY_I64_T, arr->ndim));
    return 1;
  }
  if (n < arr->ndim && in->op == OP_ARRAY_STORE) {
    ir_infer_fail(inf, idx, E_TY_INDEX, "name the remaining dimensions with slices: a[i, :] = v",
                  "assigning to a whole view of %s is not supported (%d %s for %d dimensions)",
                  TN(arr), n, plural(n, "index", "indices"), arr->ndim);
    return -1;
  }
  if (n != arr->ndim) {
    ir_infer_fail(inf, idx, E_TY_INDEX, NULL,
                  "%s needs %d %s, got %d", TN(arr), arr->ndim,
                  plural(arr->ndim, "index", "indices"), n);
    return -1;
  }
  for (int k = first; k < in->nargs; k++) {
    const Type *t = at(inf, in, k);
    if (!t)
      return 0;
    if (t->kind == TY_ARRAY) {
      ir_infer_fail(inf, idx, E_TY_INDEX, "index with integers and slices (a[i], a[1:n], a[:, j])",
                    "indexing an array with an array is not supported");
      return -1;
    }
    if (!ty_is_int(t)) {
      ir_infer_fail(inf, idx, E_TY_INDEX, ty_is_float(t) ? "convert it with int(...)" : NULL,
                    "array index must be an integer, not %s", TN(t));
      return -1;
    }
    set_need(need, k, TY_I64_T);
  }
  return 1;
}

static const Type *need_array(Infer *inf, int idx, const Type *t, const char *what) {
  if (t->kind == TY_ARRAY)
    return t;
  if (t->kind == TY_TUPLE && what[0] == 'i')
    return ir_infer_fail(inf, idx, E_TY_INDEX, "tuples can only be indexed with a constant",
                         "cannot index %s", TN(t));
  if (what[0] == 'i')
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "cannot index %s", TN(t));
  return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "unknown attribute '%s' of type %s", what, TN(t));
}

/* t[k] on a tuple held in a variable: lowering could not know t is a
 * tuple, so it emitted an array load; a constant k makes it the TUPLE_GET
 * it is (rewritten once; a tuple-typed value never becomes an array). */
static const Type *tuple_load(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  in->ival = arg_inst(inf, in, 1)->ival;
  in->op = OP_TUPLE_GET;
  in->nargs = 1;
  return type_tuple_get(inf, idx);
}

/* a[i] with fewer integer indices than dimensions is a view (a row):
 * rewritten once into the ARRAY_VIEW it is (infer_view.c). */
static bool partial_index(Infer *inf, const Inst *in, const Type *arr) {
  const Type *t0 = at(inf, in, 1);
  return in->ival == 0 && in->nargs - 1 < arr->ndim && (in->nargs > 2 || (t0 && ty_is_int(t0)));
}

/* cuda.ldca & co. (Inst.str is the cache operator): one index per
 * dimension (an int for 1-d arrays, else a tuple) and an integer or float
 * dtype, as numba-cuda requires. */
static bool check_cache_hint(Infer *inf, int idx, const Type *arr, int nidx) {
  const Inst *in = &inf->f->insts.data[idx];
  const char *name = in->op == OP_ARRAY_LOAD ? "ld" : "st";
  const Type *i0 = at(inf, in, in->op == OP_ARRAY_LOAD ? 1 : 2);
  if (arr->kind != TY_ARRAY && arr->kind != TY_PTR) {
    ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "%s%s operates on arrays or pointers, got %s", name,
                  in->str, TN(arr));
    return false;
  }
  if (arr->kind == TY_PTR && i0 && i0->kind == TY_TUPLE) {
    ir_infer_fail(inf, idx, E_TY_INDEX, "index a raw pointer with one integer",
                  "%s%s: pointers only support scalar indexing, got a tuple of %d", name, in->str,
                  i0->nelems);
    return false;
  }
  int have = i0 && i0->kind == TY_TUPLE ? i0->nelems : nidx;
  if (arr->kind == TY_PTR)
    have = 1; /* numba-cuda: any integer index is valid for a pointer */
  if (arr->kind == TY_PTR && nidx != 1) {
    ir_infer_fail(inf, idx, E_TY_INDEX, "index a raw pointer with one integer",
                  "%s%s: expected 1 index for a pointer, got %d", name, in->str, nidx);
    return false;
  }
  if (arr->kind == TY_ARRAY && have != arr->ndim) {
    ir_infer_fail(inf, idx, E_TY_INDEX, "give one index per dimension, as a tuple for N-d arrays",
                  "%s%s: expected %d indices, got %d", name, in->str, arr->ndim, have);
    return false;
  }
  const Type *e = arr->elem;
  if (!(ty_is_int(e) || ty_is_float(e)) || e->kind == TY_BOOL) {
    ir_infer_fail(inf, idx, E_TY_INDEX, NULL,
                  "%s%s requires array of integer or float type, got %s", name, in->str, TN(e));
    return false;
  }
  return true;
}

/* p[i] on a raw pointer (Numba's getitem/setitem of CPointer): exactly
 * one integer index, made int64 (an unsigned one keeps its bits, as
 * Numba's gep takes it); no wraparound, no bounds.  Returns 1 when valid,
 * 0 while the index is unknown, -1 after an error. */
static int check_ptr_index(Infer *inf, int idx, int first, const Type *ptr, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->nargs - first != 1) {
    ir_infer_fail(inf, idx, E_TY_INDEX, "index a raw pointer with one integer: p[i]",
                  "%s takes one index, got %d", TN(ptr), in->nargs - first);
    return -1;
  }
  const Type *t = at(inf, in, first);
  if (!t)
    return 0;
  if (!ty_is_int(t)) {
    ir_infer_fail(inf, idx, E_TY_INDEX, t->kind == TY_TUPLE || t->kind == TY_ARRAY
                  ? "a raw pointer has no dimensions or slices: index it with one integer"
                  : ty_is_float(t) ? "convert it with int(...)" : NULL,
                  "raw pointer index must be an integer, not %s", TN(t));
    return -1;
  }
  set_need(need, first, TY_I64_T);
  return 1;
}

static const Type *type_array_load(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *arr = at(inf, in, 0);
  if (arr && arr->kind == TY_PTR) /* cuda.ldca(p, i) & co. too (str: the operator) */
    return (!in->str || check_cache_hint(inf, idx, arr, in->nargs - 1)) &&
                   check_ptr_index(inf, idx, 1, arr, need) == 1 ? arr->elem : NULL;
  if (in->str && arr && !check_cache_hint(inf, idx, arr, in->nargs - 1))
    return NULL;
  if (arr && arr->kind == TY_TUPLE && in->nargs == 2 && arg_inst(inf, in, 1)->op == OP_CONST_INT)
    return tuple_load(inf, idx);
  if (arr && arr->kind == TY_TUPLE && in->nargs == 2) { /* t[i], i known at run time */
    in->op = OP_TUPLE_INDEX;
    return ir_infer_tuple_index(inf, idx, need);
  }
  if (arr && arr->kind == TY_RECORD)
    return ir_infer_rec_index(inf, idx);
  if (!arr || !need_array(inf, idx, arr, "index"))
    return NULL;
  if (partial_index(inf, in, arr)) {
    in->op = OP_ARRAY_VIEW;
    in->ival = 0; /* every position an integer */
    return ir_infer_view(inf, idx, need);
  }
  return check_indices(inf, idx, 1, arr, need) == 1 ? arr->elem : NULL;
}

/* A value stored into an element (ARRAY_STORE, atomics): any real number
 * converts silently; complex only into complex arrays. */
static bool check_element(Infer *inf, int idx, const Type *v, const Type *arr) {
  if (arr->elem->kind == TY_RECORD ? ty_record_layout_eq(v, arr->elem)
                                   : ty_is_number(v) && (!ty_is_complex(v) || ty_is_complex(arr->elem)))
    return true;
  if (v == TY_BF16_T && ir_bf16_storable(arr->elem))
    return true;
  ir_infer_fail(inf, idx, E_TY_CONVERT,
                v->kind == TY_ARRAY      ? "element assignment needs a scalar value"
                : ty_is_complex(v) ? "store z.real, z.imag or abs(z), or use a complex array"
                : ty_is_fp8(v)     ? "Numba converts an fp8 value only explicitly: store float32(v), or "
                                     "its raw bits from cvt_float_to_fp8 into a uint8 array"
                                   : NULL,
                "cannot store %s into %s", TN(v), TN(arr));
  return false;
}

/* The parameter whose value operand k of instruction idx is (a load of a
 * parameter local: stored-to parameters are shadowed before typing), or -1. */
static int param_operand(const Infer *inf, int idx, int k) {
  const Inst *in = &inf->f->insts.data[idx];
  int a = k < in->nargs && in->args ? in->args[k] : -1;
  if (a < 0 || a >= inf->f->insts.len)
    return -1;
  const Inst *src = &inf->f->insts.data[a];
  return src->op == OP_LOAD && src->local >= 0 && src->local < inf->f->nparams ? src->local : -1;
}

/* Read-only arrays: constant arrays (constant memory on the GPU) and
 * arrays the host marked read-only (kjit_array_set_readonly, a read-only
 * DLPack tensor), whose parameter the message names. */
bool ir_infer_check_writable(Infer *inf, int idx, const Type *arr) {
  if (!arr->readonly)
    return true;
  int p = param_operand(inf, idx, 0);
  if (p >= 0)
    ir_infer_fail(inf, idx, E_TY_READONLY,
                  "the host passed a read-only array (kjit_array_set_readonly, or a DLPack tensor "
                  "with the read-only flag): pass a writable array, or write elsewhere",
                  "argument %d ('%s') is a read-only array and %s '%s' writes to it: cannot modify "
                  "readonly array of type %s", p + 1, inf->f->locals.data[p].name,
                  inf->f->is_kernel ? "kernel" : "function", inf->f->name, TN(arr));
  else
    ir_infer_fail(inf, idx, E_TY_READONLY,
                  "constant arrays are read-only: copy the values into cuda.local.array or an "
                  "output array first",
                  "cannot modify readonly array of type %s", TN(arr));
  return false;
}

static const Type *type_array_store(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *arr = at(inf, in, 0), *v = at(inf, in, 1);
  if (arr && arr->kind == TY_RECORD)
    return ir_infer_rec_store(inf, idx, need);
  if (arr && arr->kind == TY_TUPLE)
    return ir_infer_fail(inf, idx, E_TY_INDEX,
                         "tuples are immutable: build a new tuple, or use cuda.local.array",
                         "'tuple' object does not support item assignment");
  if (arr && arr->kind == TY_PTR && v) {
    if (!ty_is_number(v) || (ty_is_complex(v) && !ty_is_complex(arr->elem)))
      return ir_infer_fail(inf, idx, E_TY_CONVERT, NULL, "cannot store %s into %s", TN(v), TN(arr));
    if ((in->str && !check_cache_hint(inf, idx, arr, in->nargs - 2)) ||
        check_ptr_index(inf, idx, 2, arr, need) != 1)
      return NULL;
    set_need(need, 1, arr->elem);
    return TY_VOID_T;
  }
  if (!arr || !need_array(inf, idx, arr, "index") || !v || !ir_infer_check_writable(inf, idx, arr))
    return NULL;
  if (in->str && !check_cache_hint(inf, idx, arr, in->nargs - 2))
    return NULL;
  if (!check_element(inf, idx, v, arr) || check_indices(inf, idx, 2, arr, need) != 1)
    return NULL;
  set_need(need, 1, ty_is_number(arr->elem) || arr->elem == TY_BF16_T ? arr->elem : NULL); /* a record: copied as bytes */
  return TY_VOID_T;
}

/* a[slices] = v (ARRAY_FILL): Numba's setitem with slices.  A number is
 * converted to the dtype and stored into every element of the view; an
 * array is broadcast onto the view (NumPy's rule: its dimensions aligned
 * on the right, each equal or 1), which codegen checks at run time. */
static const Type *type_array_fill(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *arr = at(inf, in, 0), *v = at(inf, in, 1);
  if (!arr || !need_array(inf, idx, arr, "slice") || !v || !ir_infer_check_writable(inf, idx, arr))
    return NULL;
  if (!ty_is_number(arr->elem))
    return ir_infer_fail(inf, idx, E_TY_INDEX, "assign element by element in a loop",
                         "assigning to a slice of %s is not supported yet", TN(arr));
  if (v->kind != TY_ARRAY)
    return check_element(inf, idx, v, arr) ? (set_need(need, 1, arr->elem), TY_VOID_T) : NULL;
  if (v->ndim > arr->ndim)
    return ir_infer_fail(inf, idx, E_TY_INDEX, "the source may have as many dimensions as the "
                         "slice, or fewer (broadcast)",
                         "cannot assign %s to a slice of %s: the source has more dimensions",
                         TN(v), TN(arr));
  if (!ty_is_number(v->elem) || (ty_is_complex(v->elem) && !ty_is_complex(arr->elem)))
    return ir_infer_fail(inf, idx, E_TY_CONVERT, NULL, "cannot store the elements of %s into %s",
                         TN(v), TN(arr));
  return TY_VOID_T;
}

static const Type *type_array_attr(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *arr = at(inf, in, 0);
  static const char *const names[] = {"shape", "strides", "size", "ndim"};
  int which = in->op == OP_ARRAY_SHAPE ? 0 : in->op == OP_ARRAY_STRIDE ? 1
            : in->op == OP_ARRAY_SIZE ? 2 : 3;
  if (ty_is_vector(arr))
    return ir_infer_fail(inf, idx, E_TY_INDEX, "use its attributes .x .y .z .w",
                         "%s has no len()", TN(arr));
  if (arr && arr->kind == TY_TUPLE && in->op == OP_ARRAY_SHAPE && in->ival == -2) {
    in->op = OP_CONST_INT; /* len(t): a constant */
    in->ival = arr->nelems;
    in->nargs = 0;
    return TY_I64_T;
  }
  if (arr && arr->kind != TY_ARRAY && in->op == OP_ARRAY_SHAPE && in->ival == -2)
    return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "object of type %s has no len()", TN(arr));
  if (!arr || !need_array(inf, idx, arr, names[which]))
    return NULL;
  if (in->ival == -2)
    in->ival = 0; /* len(a) is a.shape[0] */
  if (in->op == OP_ARRAY_NDIM) {
    /* a compile-time constant: fold it here (ops.h) */
    in->op = OP_CONST_INT;
    in->ival = arr->ndim;
    in->nargs = 0;
    return TY_I64_T;
  }
  if (in->op == OP_ARRAY_SIZE)
    return TY_I64_T;
  if (in->ival == -1)
    return ty_unituple(inf->tt, TY_I64_T, arr->ndim);
  if (in->ival < 0 || in->ival >= arr->ndim)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "%s index %lld out of range for %s",
                         names[which], (long long)in->ival, TN(arr));
  return TY_I64_T;
}

/* ------------------------------------------------------ sync and atomics -- */

static const Type *type_sync_pred(Infer *inf, int idx, const Type **need) {
  if (!type_truth(inf, idx, 0, need))
    return NULL;
  set_need(need, 0, TY_I32_T); /* infer_cast.c goes through truth first */
  return TY_I32_T;
}

/* ---------------------------------------------------------------- warp -- */

/* The Numba name of a warp operation, for messages. */
static const char *warp_name(const Inst *in) {
  static const char *const shfl[] = {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"};
  static const char *const vote[] = {"all_sync", "any_sync", "eq_sync", "ballot_sync"};
  switch (in->op) {
  case OP_SHFL: return shfl[in->ival & 3];
  case OP_VOTE: return vote[in->ival & 3];
  case OP_MATCH: return in->ival ? "match_all_sync" : "match_any_sync";
  default: return "syncwarp";
  }
}

/* Operand k is an integer, converted to `to` (masks, lanes, deltas). */
static bool type_warp_int(Infer *inf, int idx, int k, const Type *to, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *m = at(inf, in, k);
  if (!m)
    return false;
  if (!intlike(m)) {
    ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL, "cuda.%s %s must be an integer, not %s",
                  warp_name(in), k == 0 ? "mask" : "lane", TN(m));
    return false;
  }
  set_need(need, k, to);
  return true;
}

/* The value of a shfl or match: a 32- or 64-bit int or float, as in Numba. */
static const Type *warp_value(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *v = at(inf, in, 1);
  if (!v)
    return NULL;
  switch (v->kind) {
  case TY_I32: case TY_I64: case TY_U32: case TY_U64: case TY_F32: case TY_F64: return v;
  default:
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "convert it, e.g. int32(x)",
                         "cuda.%s takes an int32, int64, uint32, uint64, float32 or float64 value, not %s",
                         warp_name(in), TN(v));
  }
}

static const Type *type_syncwarp(Infer *inf, int idx, const Type **need) {
  return type_warp_int(inf, idx, 0, TY_U32_T, need) ? TY_VOID_T : NULL;
}

static const Type *type_shfl(Infer *inf, int idx, const Type **need) {
  const Type *v = warp_value(inf, idx);
  if (!type_warp_int(inf, idx, 0, TY_U32_T, need) || !v ||
      !type_warp_int(inf, idx, 2, TY_I32_T, need))
    return NULL;
  return v;
}

static const Type *type_vote(Infer *inf, int idx, const Type **need) {
  if (!type_warp_int(inf, idx, 0, TY_U32_T, need) || !type_truth(inf, idx, 1, need))
    return NULL;
  /* ballot is int32 in Numba (vote_sync_intrinsic's i4): ballot >> 16 sign-extends */
  return inf->f->insts.data[idx].ival == VOTE_BALLOT ? TY_I32_T : TY_BOOL_T;
}

static const Type *type_match(Infer *inf, int idx, const Type **need) {
  if (!type_warp_int(inf, idx, 0, TY_U32_T, need) || !warp_value(inf, idx))
    return NULL;
  const Type *pair[2] = {TY_U32_T, TY_BOOL_T};
  /* match_any is int32 in Numba; match_all's mask stays as it was measured */
  return inf->f->insts.data[idx].ival ? ty_tuple(inf->tt, pair, 2) : TY_I32_T;
}

static const char *const atomic_names[] = {
    "add", "sub", "and", "or", "xor", "max", "min", "exch", "inc", "dec", "cas",
    "nanmax", "nanmin",
};

/* Numba's supported dtypes per atomic (numba-cuda cudadecl.py). */
static bool atomic_supports(int kind, const Type *dt) {
  bool i32_64 = dt == TY_I32_T || dt == TY_U32_T || dt == TY_I64_T || dt == TY_U64_T;
  bool f32_64 = dt == TY_F32_T || dt == TY_F64_T;
  switch (kind) {
  case AK_ADD: case AK_SUB: case AK_MAX: case AK_MIN: case AK_EXCH:
  case AK_NANMAX: case AK_NANMIN:
    return i32_64 || f32_64;
  case AK_AND: case AK_OR: case AK_XOR: case AK_CAS:
    return i32_64;
  case AK_INC: case AK_DEC:
    return dt == TY_U32_T || dt == TY_U64_T;
  default:
    return false;
  }
}

static const char *atomic_hint(int kind) {
  switch (kind) {
  case AK_AND: case AK_OR: case AK_XOR: case AK_CAS:
    return "supported dtypes: int32, uint32, int64, uint64";
  case AK_INC: case AK_DEC:
    return "supported dtypes: uint32, uint64";
  default:
    return "supported dtypes: int32, uint32, int64, uint64, float32, float64";
  }
}

static bool atomic_index(Infer *inf, int idx, const Type *arr, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *t = at(inf, in, 1);
  if (!t)
    return false;
  if (t->kind == TY_TUPLE || arr->ndim > 1) {
    if (t->kind != TY_TUPLE || t->nelems != arr->ndim) {
      ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "%s needs %d %s, got %d", TN(arr), arr->ndim,
                    plural(arr->ndim, "index", "indices"), t->kind == TY_TUPLE ? t->nelems : 1);
      return false;
    }
    for (int i = 0; i < t->nelems; i++)
      if (!ty_is_int(t->elems[i])) {
        ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "array index must be an integer, not %s",
                      TN(t->elems[i]));
        return false;
      }
    set_need(need, 1, ty_unituple(inf->tt, TY_I64_T, arr->ndim));
    return true;
  }
  if (!ty_is_int(t)) {
    ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "array index must be an integer, not %s", TN(t));
    return false;
  }
  set_need(need, 1, TY_I64_T);
  return true;
}

static const Type *type_atomic(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int kind = (int)in->ival;
  if (kind < AK_ADD || kind > AK_NANMIN)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad atomic kind %d", kind);
  int want = kind == AK_CAS ? 4 : 3;
  if (in->nargs != want)
    return ir_infer_fail(inf, idx, E_TY_ATOMIC, NULL, "cuda.atomic.%s takes %d arguments, got %d",
                         atomic_names[kind], want, in->nargs);
  const Type *arr = at(inf, in, 0);
  if (!arr)
    return NULL;
  if (arr->kind == TY_PTR) /* Numba's atomic templates read ary.ndim: typing fails */
    return ir_infer_fail(inf, idx, E_TY_ATOMIC,
                         "Numba's atomics take arrays: view the memory as one, "
                         "cuda.atomic.add(carray(p, n), i, v)",
                         "cuda.atomic.%s on a raw pointer (%s) is not supported",
                         atomic_names[kind], TN(arr));
  if (arr->kind != TY_ARRAY)
    return ir_infer_fail(inf, idx, E_TY_ATOMIC, NULL,
                         "cuda.atomic.%s needs an array as its first argument, got %s",
                         atomic_names[kind], TN(arr));
  if (!ir_infer_check_writable(inf, idx, arr))
    return NULL;
  if (!atomic_supports(kind, arr->elem))
    return ir_infer_fail(inf, idx, E_TY_ATOMIC, atomic_hint(kind),
                         "cuda.atomic.%s does not support %s", atomic_names[kind], TN(arr));
  if (!atomic_index(inf, idx, arr, need))
    return NULL;
  for (int k = 2; k < want; k++) {
    const Type *v = at(inf, in, k);
    if (!v || !check_element(inf, idx, v, arr))
      return NULL;
    set_need(need, k, arr->elem);
  }
  return arr->elem;
}

/* ------------------------------------------------------------ intrinsics -- */

static const char *intrinsic_prefix(int id) {
  switch (id) {
  case IN_FMA: case IN_POPC: case IN_CLZ: case IN_FFS: case IN_BREV: case IN_SELP:
    return "cuda.";
  case IN_ABS: case IN_MIN: case IN_MAX: case IN_ROUND: case IN_ROUNDN:
    return "";
  default:
    return "math.";
  }
}

/* The float a math function computes in: floats keep their type, ints and
 * bools go to float64 (Numba's math templates). */
static const Type *math_float(const Type *t) { return ty_is_float(t) ? t : TY_F64_T; }

/* Unified float of several real numbers; all-int gives float64. */
static const Type *unify_floats(Infer *inf, const Type *const *ts, int n) {
  const Type *u = ts[0];
  for (int i = 1; i < n && u; i++)
    u = ty_unify(inf->tt, u, ts[i]);
  return u ? math_float(u) : NULL;
}

static const Type *bad_arg(Infer *inf, int idx, int id, const Type *t) {
  return ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL, "%s%s() does not support %s",
                       intrinsic_prefix(id), ir_intrinsic_info[id].name, TN(t));
}

static void set_all(const Type **need, int n, const Type *t) {
  for (int k = 0; k < n; k++)
    set_need(need, k, t);
}

/* The float a function with only float32/float64 cases computes in:
 * Numba's safe casts, at least float32 (int8 -> float32, int32 -> float64,
 * float16 -> float32). */
static const Type *safe32(const Type *t) { return ty_binop(OP_ADD, t, TY_F32_T, NULL); }

/* Two-argument math.  atan2/hypot have int64 cases (two ints -> float64);
 * math.pow has a (float32, int32) case, so an exponent that converts
 * safely to int32 does not widen the result; the others only have float
 * cases. */
static const Type *type_math2(Infer *inf, int id, const Type *const *ts, const Type **need) {
  const Type *a = safe32(ts[0]), *b = safe32(ts[1]);
  if ((id == IN_ATAN2 || id == IN_HYPOT) && intlike(ts[0]) && intlike(ts[1]))
    a = b = TY_F64_T;
  if (id == IN_POWF && intlike(ts[1])) {
    /* measured: uint16 keeps a float32 base but widens an integer base */
    bool int32_safe = ty_bits(ts[1]) < 16 || ts[1] == TY_I16_T || ts[1] == TY_I32_T ||
                      (ts[1] == TY_U16_T && ts[0] == TY_F32_T);
    b = int32_safe ? TY_F32_T : TY_F64_T;
  }
  const Type *r = ty_unify(inf->tt, a, b);
  set_all(need, 2, r);
  return r;
}

/* cuda.popc/clz/ffs/brev, as numba-cuda's cases resolve: popc and clz keep
 * the operand type (bool -> int8); ffs takes 32/64-bit ints and gives
 * uint32; brev is uint64 for uint64 and uint32 for every other int
 * (int64 included: the (uint32) case wins the tie).  choice: floats are
 * rejected (Numba accepts them through an unsafe cast to int8/uint32). */
static const Type *type_bits(Infer *inf, int idx, int id, const Type *a, const Type **need) {
  if (!intlike(a) || (id == IN_FFS && ty_bits(a) < 32))
    return bad_arg(inf, idx, id, a);
  const Type *arg = a->kind == TY_BOOL ? TY_I8_T : a, *r = arg;
  if (id == IN_FFS)
    r = TY_U32_T;
  else if (id == IN_BREV)
    arg = r = a == TY_U64_T ? TY_U64_T : TY_U32_T;
  set_need(need, 0, arg);
  return r;
}

/* round(x) is int64 (computed in float32 for float16, float64 for ints);
 * round(x, n) keeps x's float type (small ints: float32), n int64. */
static const Type *type_round(const Type *const *ts, int id, const Type **need) {
  const Type *x = id == IN_ROUND ? math_float(ts[0]) : safe32(ts[0]);
  if (x == TY_F16_T)
    x = TY_F32_T;
  set_need(need, 0, x);
  if (id == IN_ROUND)
    return TY_I64_T;
  set_need(need, 1, TY_I64_T);
  return x;
}

/* min/max unify (NumPy promotion); Numba has no case mixing bool with a
 * number. */
static const Type *type_minmax(Infer *inf, int idx, int id, const Type *const *ts,
                               const Type **need) {
  if ((ts[0]->kind == TY_BOOL) != (ts[1]->kind == TY_BOOL))
    return bad_arg(inf, idx, id, ts[0]->kind == TY_BOOL ? ts[0] : ts[1]);
  const Type *r = ty_unify(inf->tt, ts[0], ts[1]);
  set_all(need, 2, r);
  return r;
}

static const Type *type_special(Infer *inf, int idx, int id, const Type *const *ts,
                                int n, const Type **need) {
  const Type *a = ts[0], *r;
  switch (id) {
  case IN_FLOOR: case IN_CEIL: case IN_TRUNC:
    /* numba-cuda: floats keep their type, ints go to float64 */
    set_need(need, 0, math_float(a));
    return math_float(a);
  case IN_LDEXP:
    if (!intlike(ts[1]))
      return bad_arg(inf, idx, id, ts[1]);
    set_need(need, 0, math_float(a));
    set_need(need, 1, TY_I32_T); /* libdevice ldexp takes an int */
    return math_float(a);
  case IN_FREXP: {
    const Type *el[2] = {math_float(a), TY_I32_T};
    set_need(need, 0, el[0]);
    return ty_tuple(inf->tt, el, 2);
  }
  case IN_MODF:
    set_need(need, 0, math_float(a));
    return ty_unituple(inf->tt, math_float(a), 2);
  case IN_FMA:
    r = unify_floats(inf, ts, n);
    set_all(need, n, r);
    return r;
  case IN_MIN: case IN_MAX:
    return type_minmax(inf, idx, id, ts, need);
  case IN_ABS:
    /* abs(bool) is int8: the first signed case that bool converts to */
    r = a->kind == TY_BOOL ? TY_I8_T : a;
    set_need(need, 0, r);
    return a == TY_C64_T ? TY_F32_T : a == TY_C128_T ? TY_F64_T : r;
  case IN_ROUND: case IN_ROUNDN:
    if (id == IN_ROUNDN && !intlike(ts[1]))
      return bad_arg(inf, idx, id, ts[1]);
    return type_round(ts, id, need);
  case IN_POPC: case IN_CLZ: case IN_FFS: case IN_BREV:
    return type_bits(inf, idx, id, a, need);
  default:
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: intrinsic %d", id);
  }
}

static const Type *type_intrinsic(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  int id = (int)in->ival;
  if (id < 0 || id >= IN__COUNT)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad intrinsic %d", id);
  const IntrinsicInfo *ii = &ir_intrinsic_info[id];
  if (in->nargs != ii->arity || in->nargs > 3)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL, "%s%s() takes %d argument%s, got %d",
                         intrinsic_prefix(id), ii->name, ii->arity, ii->arity == 1 ? "" : "s",
                         in->nargs);
  const Type *ts[3] = {NULL, NULL, NULL};
  for (int k = 0; k < in->nargs; k++)
    if (!(ts[k] = at(inf, in, k)))
      return NULL;
  if (id == IN_SELP) {
    if (!type_truth(inf, idx, 0, need))
      return NULL;
    const Type *r = ty_unify(inf->tt, ts[1], ts[2]);
    if (!r || !ty_is_number(r))
      return bad_arg(inf, idx, id, ty_is_number(ts[1]) ? ts[2] : ts[1]);
    set_need(need, 1, r);
    set_need(need, 2, r);
    return r;
  }
  bool complex_ok = id == IN_ABS;
  for (int k = 0; k < in->nargs; k++)
    if (!(complex_ok ? ty_is_number(ts[k]) : realnum(ts[k])))
      return bad_arg(inf, idx, id, ts[k]);
  switch (ii->kind) {
  case IK_MATHF: {
    /* math.* have int64 cases (ints -> float64); cuda.cbrt only floats */
    const Type *r = id == IN_CBRT ? safe32(ts[0]) : math_float(ts[0]);
    set_need(need, 0, r);
    return r;
  }
  case IK_MATHF2:
    return type_math2(inf, id, ts, need);
  case IK_PRED:
    set_need(need, 0, math_float(ts[0]));
    return TY_BOOL_T;
  default:
    return type_special(inf, idx, id, ts, in->nargs, need);
  }
}

/* ------------------------------------------------------ calls and output -- */

/* A callee's errors point into its body; a note at the call says which
 * call and argument types led there (once: a failed specialization is
 * memoized, so later calls add nothing). */
static void note_call_site(Infer *inf, int idx, const Type *const *ts, int first_diag) {
  const Inst *in = &inf->f->insts.data[idx];
  const Diags *d = inf->d;
  if (first_diag >= d->list.len || d->list.data[first_diag].loc.line == in->loc.line)
    return;
  StrBuf sb;
  sb_init(&sb);
  for (int k = 0; k < in->nargs; k++)
    sb_printf(&sb, "%s%s", k ? ", " : "", TN(ts[k]));
  diag_add(inf->d, DL_NOTE, E_TY_CALL, in->loc, NULL, "in the call to '%s' with (%s)",
           in->callee->name, sb.data ? sb.data : "");
  sb_free(&sb);
}

/* A device function compiled eagerly (`@cuda.jit("float32(float32)",
 * device=True)`) is called through the declared signature Numba's typing
 * picks (ir/dispatch.h, ir_pick_overload: the fewest unsafe, then safe,
 * then promoting conversions; the first of a tie); the arguments are
 * converted to it.  NULL (with an error) when none fits. */
static const Type *const *eager_params(Infer *inf, int idx, const IrFunc *gen,
                                       const Type *const *ts, int nargs) {
  int best = ir_pick_overload(gen->eager.data, gen->eager.len, nargs, ir_type_arg_conv, ts);
  if (best >= 0)
    return gen->eager.data[best].params;
  StrBuf sb;
  sb_init(&sb);
  for (int k = 0; k < nargs; k++)
    sb_printf(&sb, "%s%s", k ? ", " : "", TN(ts[k]));
  const char *args = arena_strdup(inf->c->arena, sb.data ? sb.data : "");
  sb_free(&sb);
  ir_infer_fail(inf, idx, E_TY_CALL,
                "the device function is compiled for its declared signatures only; add one "
                "for these types, or remove the signatures to compile it lazily",
                "no signature of '%s' accepts (%s)", gen->name, args);
  return NULL;
}

static const Type *type_call(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  if (!in->callee)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: call without a callee");
  IrFunc *gen = in->callee->generic ? in->callee->generic : in->callee;
  if (gen->is_kernel && !gen->is_device)
    return ir_infer_fail(inf, idx, E_TY_CALL,
                         "kernels are launched, not called; declare it with device=True",
                         "cannot call kernel '%s' from device code", gen->name);
  const Type **ts = arena_alloc(inf->c->arena, sizeof *ts * (size_t)(in->nargs + 1));
  for (int k = 0; k < in->nargs; k++)
    if (!(ts[k] = at(inf, in, k)))
      return NULL;
  if (gen->is_device && gen->eager.len > 0 && !gen->is_ufunc && !gen->is_reduce) {
    const Type *const *declared = eager_params(inf, idx, gen, ts, in->nargs);
    if (!declared)
      return NULL;
    memcpy(ts, declared, sizeof *ts * (size_t)in->nargs);
  }
  SrcLoc loc = in->loc;
  int first_diag = inf->d->list.len;
  IrConstArg *consts = ir_infer_call_consts(inf, idx, gen);
  IrFunc *spec = ir_specialize_consts(inf->c, gen, ts, in->nargs, loc, consts);
  in = &inf->f->insts.data[idx];
  if (!spec) {
    inf->callee_failed = true;
    note_call_site(inf, idx, ts, first_diag);
    inf->dead[idx] = inf->reported[idx] = true; /* the callee reported why */
    return NULL;
  }
  in->callee = spec;
  for (int k = 0; k < in->nargs && k < spec->nparams; k++)
    set_need(need, k, spec->locals.data[k].type);
  if (!spec->ret_type && !spec->typed && inf->report)   /* a lazy recursion, still untyped */
    return ir_infer_fail(inf, idx, E_TY_RECURSION,
                         "some path of the function must return without calling itself, or "
                         "give it an explicit signature",
                         "cannot type infer runaway recursion of '%s'", gen->name);
  return spec->ret_type;
}

/* numba-cuda's printimpl: numbers, bools, string literals and the Dim3 of
 * cuda.threadIdx & co. ("(x, y, z)"); tuples have no print there.  More
 * than 32 items: Numba warns, then fails to print its raw format string
 * (recorded on the GPU, 2026-11-28), so kjit refuses the call. */
#define PRINT_MAX_ITEMS 32

static const Type *type_print(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  for (int k = 0; k < in->nargs; k++) {
    const Type *t = at(inf, in, k);
    if (!t)
      return NULL;
    const Inst *a = &inf->f->insts.data[in->args[k]];
    bool dim3 = a->op == OP_TUPLE && a->str && strcmp(a->str, "dim3") == 0;
    if (t->kind == TY_TUPLE && !dim3)
      return ir_infer_fail(inf, idx, E_TY_PRINT, "print the elements: print(t[0], t[1])",
                           "print() of a tuple is not supported: numba-cuda has no print of "
                           "%s (\"printing unimplemented for values of type %s\")", TN(t), TN(t));
    if (!ty_is_number(t) && t->kind != TY_STR && t->kind != TY_NONE && !dim3)
      return ir_infer_fail(inf, idx, E_TY_PRINT, "print scalars and strings only",
                           "print() does not support %s", TN(t));
  }
  if (in->nargs > PRINT_MAX_ITEMS)
    return ir_infer_fail(inf, idx, E_TY_PRINT, "split it into calls of at most 32 items",
                         "print() of %d items is not supported: CUDA print() takes at most 32 "
                         "(Numba 0.68 warns, then fails: \"printing unimplemented for values of "
                         "type unicode_type\")", in->nargs);
  return TY_VOID_T;
}

/* ---------------------------------------------------------------- locals -- */

static const Type *type_load(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->local < 0 || in->local >= inf->f->locals.len)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad local %d", in->local);
  const IrLocal *l = &inf->f->locals.data[in->local];
  if (in->local >= inf->f->nparams && inf->nstores[in->local] == 0)
    return ir_infer_fail(inf, idx, E_TY_UNDEFINED, NULL,
                         "local variable '%s' referenced before assignment", l->name);
  return l->type;
}

static void report_unify(Infer *inf, int idx, const IrLocal *l, const Type *v) {
  char hint[256];
  bool none = l->type->kind == TY_NONE || v->kind == TY_NONE; /* Numba: Optional */
  snprintf(hint, sizeof hint, "'%s' was first assigned %s on line %d%s", l->name,
           TN(l->type), l->type_loc.line ? l->type_loc.line : l->loc.line,
           none ? "; a variable that is None on some paths only (Numba's Optional) is not "
                  "supported: test `is None` on the parameter before any assignment to it"
                : "");
  ir_infer_fail(inf, idx, E_TY_UNIFY, hint, "cannot unify %s and %s for variable '%s'",
                TN(l->type), TN(v), l->name);
}

static const Type *type_store(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->local < 0 || in->local >= inf->f->locals.len)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad local %d", in->local);
  const Type *v = at(inf, in, 0);
  if (!v)
    return NULL;
  IrLocal *l = &inf->f->locals.data[in->local];
  if (l->type && l->type->kind == TY_UNKNOWN)
    return TY_VOID_T; /* poisoned by an error already out */
  const Type *u = l->type ? ty_unify(inf->tt, l->type, v) : v;
  if (!u) {
    report_unify(inf, idx, l, v);
    if (inf->report) { /* one error: the reads of the variable stay quiet */
      l->type = TY_UNKNOWN_T;
      inf->changed = true;
    }
    return NULL;
  }
  if (u != l->type) {
    l->type = u;
    l->type_loc = in->loc;
    inf->changed = true;
  }
  set_need(need, 0, u);
  return TY_VOID_T;
}

/* --------------------------------------------------------------- control -- */

static const Type *type_ret(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->nargs > 1)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: ret with %d values",
                         in->nargs);
  if (in->nargs == 1 && !at(inf, in, 0))
    return NULL;
  return TY_VOID_T; /* the function's return type is unified in infer.c */
}

static const Type *type_const(const Inst *in) {
  if (in->type)
    return in->type;
  switch (in->op) {
  case OP_CONST_INT: return TY_I64_T;
  case OP_CONST_FLOAT: return TY_F64_T;
  case OP_CONST_BOOL: return TY_BOOL_T;
  case OP_CONST_NONE: return TY_NONE_T;
  default: return TY_STR_T;
  }
}

/* Malformed IR (operand count or index out of range) is an internal error,
 * never a crash. */
static bool well_formed(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if ((unsigned)in->op >= OP__COUNT) {
    ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad opcode %d", (int)in->op);
    return false;
  }
  int want = ir_op_info[in->op].nargs;
  if ((want >= 0 && in->nargs != want) || in->nargs < 0 || (in->nargs > 0 && !in->args)) {
    ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: '%s' has %d operands",
                  ir_op_info[in->op].name, in->nargs);
    return false;
  }
  for (int k = 0; k < in->nargs; k++)
    if (in->args[k] < 0 || in->args[k] >= inf->f->insts.len || in->args[k] == idx) {
      ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: bad operand %d of '%s'",
                    in->args[k], ir_op_info[in->op].name);
      return false;
    }
  return true;
}

const Type *ir_infer_inst(Infer *inf, int idx, const Type **need) {
  if (!well_formed(inf, idx))
    return NULL;
  if (ir_infer_fp8_claims(inf, idx)) /* first: bfloat16(v) of an fp8 v is fp8's */
    return ir_infer_fp8(inf, idx, need);
  if (ir_infer_bf16_claims(inf, idx))
    return ir_infer_bf16(inf, idx, need);
  const Inst *in = &inf->f->insts.data[idx];
  int flags = ir_op_info[in->op].flags;
  if (flags & OPF_BINARY)
    return type_binary(inf, idx, need);
  if (flags & OPF_CMP)
    return type_compare(inf, idx, need);
  if (flags & OPF_UNARY)
    return type_unary(inf, idx, need);
  switch (in->op) {
  case OP_CONST_INT: case OP_CONST_FLOAT: case OP_CONST_BOOL:
  case OP_CONST_NONE: case OP_CONST_STR:
    return type_const(in);
  case OP_LOAD: return type_load(inf, idx);
  case OP_STORE: return type_store(inf, idx, need);
  case OP_CAST: return type_cast(inf, idx);
  case OP_TRUTH: return type_truth(inf, idx, 0, NULL);
  case OP_SELECT: return type_select(inf, idx, need);
  case OP_TUPLE: return type_tuple(inf, idx);
  case OP_TUPLE_GET: return type_tuple_get(inf, idx);
  case OP_ARRAY_LOAD: return type_array_load(inf, idx, need);
  case OP_ARRAY_STORE: return type_array_store(inf, idx, need);
  case OP_ARRAY_FILL: return type_array_fill(inf, idx, need);
  case OP_ARRAY_SHAPE: case OP_ARRAY_STRIDE: case OP_ARRAY_SIZE: case OP_ARRAY_NDIM:
    return type_array_attr(inf, idx);
  case OP_ARRAY_VIEW: return ir_infer_view(inf, idx, need);
  case OP_ARRAY_T: return ir_infer_transpose(inf, idx);
  case OP_ARRAY_RESHAPE: return ir_infer_reshape(inf, idx, need);
  case OP_GRID_GROUP: case OP_GRID_SYNC: return ir_infer_grid(inf, idx);
  case OP_TUPLE_INDEX: return ir_infer_tuple_index(inf, idx, need);
  case OP_REC_GET: return ir_infer_rec_get(inf, idx);
  case OP_REC_SET: return ir_infer_rec_set(inf, idx, need);
  case OP_VALUE: return ir_infer_ctvalue(inf, idx);
  case OP_ARRAY_DTYPE: return ir_infer_array_dtype(inf, idx);
  case OP_CALL_VALUE: return ir_infer_call_value(inf, idx, need);
  case OP_HOST_GLOBAL: return ir_infer_host_global(inf, idx);
  case OP_ARRAY_REDUCE: return ir_infer_array_reduce(inf, idx);
  case OP_SHARED_ARRAY: case OP_LOCAL_ARRAY: case OP_CONST_ARRAY:
    if (!in->tyimm && in->nargs == 2)
      return ir_infer_deferred_array(inf, idx);
    if (!in->tyimm || in->tyimm->kind != TY_ARRAY)
      return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: array without a type");
    if (in->op == OP_LOCAL_ARRAY && ir_alloc_bytes(in) > IR_MAX_LOCAL_BYTES) /* a shape frozen per call */
      return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                           "use shared or global memory (an array argument) for large per-thread data",
                           "a local array of %lld bytes exceeds the %d bytes of local memory a thread has",
                           (long long)ir_alloc_bytes(in), IR_MAX_LOCAL_BYTES);
    return in->tyimm;
  case OP_THREAD_IDX: case OP_BLOCK_IDX: case OP_BLOCK_DIM: case OP_GRID_DIM:
  case OP_LANEID: case OP_WARPSIZE:
    return TY_I32_T;
  case OP_SYNCTHREADS_COUNT: case OP_SYNCTHREADS_AND: case OP_SYNCTHREADS_OR:
    return type_sync_pred(inf, idx, need);
  case OP_SYNCWARP: return type_syncwarp(inf, idx, need);
  case OP_SHFL: return type_shfl(inf, idx, need);
  case OP_VOTE: return type_vote(inf, idx, need);
  case OP_MATCH: return type_match(inf, idx, need);
  case OP_ACTIVEMASK: case OP_LANEMASK_LT: return TY_U32_T;
  case OP_ATOMIC: return type_atomic(inf, idx, need);
  case OP_RANDOM: return ir_infer_random(inf, idx, need);
  case OP_INTRINSIC: return type_intrinsic(inf, idx, need);
  case OP_NUMFN: return ir_infer_numfn(inf, idx, need);
  case OP_NPUFUNC: return ir_infer_npufunc(inf, idx, need);
  case OP_ARRAY_UFUNC: return ir_infer_array_ufunc(inf, idx);
  case OP_LIBDEVICE: return ir_infer_libdevice(inf, idx, need);
  case OP_VECTOR: return ir_infer_vector(inf, idx, need);
  case OP_IS: case OP_ISNOT: return ir_infer_is(inf, idx, need);
  case OP_ISINSTANCE: return ir_infer_isinstance(inf, idx);
  case OP_CALL: return type_call(inf, idx, need);
  case OP_CALL_FOREIGN: return ir_type_foreign(inf, idx, need);
  case OP_PRINT: return type_print(inf, idx);
  case OP_CBR:
    return type_truth(inf, idx, 0, need) ? TY_VOID_T : NULL;
  case OP_RET: return type_ret(inf, idx);
  case OP_ASSERT_ON: return TY_BOOL_T;
  case OP_SYNCTHREADS: case OP_FENCE: case OP_BR: case OP_UNREACHABLE: case OP_ASSERT_FAIL:
  case OP_RAISE:
    return TY_VOID_T;
  default:
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: untyped op '%s'",
                         ir_op_info[in->op].name);
  }
}
