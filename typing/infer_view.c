/* infer_view.c - typing of array views (ARRAY_VIEW, ARRAY_T) and of a
 * tuple indexed at run time (TUPLE_INDEX), with Numba's layout rule.
 *
 * Numba 0.68, numba/core/typing/arraydecl.py (get_array_index_type): a view
 * of a C array stays C when every index keeps contiguity: integers do, and
 * a slice does only as the last index written and without a step (`a[1:]`,
 * `a[i, :]`, `a[i, 2:5]`); `a[::1]`, `a[1:, :]`, `a[:, j]` are A.  A view of
 * an A array is A.  `a.T` (every axis reversed, as NumPy's) of a C array is F
 * in Numba, which kjit types as A (as it types `[::1, :]` signatures); a 1-d
 * `a.T` is `a` itself. */
#include "typing/typing_internal.h"

#define TN(t) ir_infer_tname(inf, (t))

static const Type *at(const Infer *inf, const Inst *in, int k) {
  if (k < 0 || k >= in->nargs)
    return NULL;
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return (t && t->kind != TY_UNKNOWN) ? t : NULL;
}

static void set_need(const Type **need, int k, const Type *t) {
  if (need)
    need[k] = t;
}

static bool is_slice(const Inst *in, int p) { return p < 62 && (in->ival >> p & 1); }

/* Positions of the view (ints and slices), or -1 when the operand count
 * does not match ival. */
static int view_positions(const Inst *in) {
  int n = 0, k = 1;
  while (k < in->nargs)
    k += is_slice(in, n++) ? 3 : 1;
  return k == in->nargs ? n : -1;
}

/* An integer index: 1 ok, 0 unknown, -1 reported. */
static int check_int(Infer *inf, int idx, int k, const Type **need) {
  const Type *t = at(inf, &inf->f->insts.data[idx], k);
  if (!t)
    return 0;
  if (ty_is_int(t)) {
    set_need(need, k, TY_I64_T);
    return 1;
  }
  if (t->kind == TY_ARRAY)
    ir_infer_fail(inf, idx, E_TY_INDEX, "index with integers and slices (a[i], a[1:n], a[:, j])",
                  "indexing an array with an array is not supported");
  else
    ir_infer_fail(inf, idx, E_TY_INDEX, ty_is_float(t) ? "convert it with int(...)" : NULL,
                  "array index must be an integer, not %s", TN(t));
  return -1;
}

/* A slice component: an integer (-> int64) or none (omitted). */
static int check_part(Infer *inf, int idx, int k, const Type **need) {
  const Type *t = at(inf, &inf->f->insts.data[idx], k);
  if (!t)
    return 0;
  if (t->kind == TY_NONE)
    return 1;
  if (ty_is_int(t)) {
    set_need(need, k, TY_I64_T);
    return 1;
  }
  ir_infer_fail(inf, idx, E_TY_INDEX, ty_is_float(t) ? "convert it with int(...)" : NULL,
                "slice indices must be integers or None, not %s", TN(t));
  return -1;
}

/* Numba's rule (file header): does the view of a C array stay C? */
static Layout view_layout(const Infer *inf, const Inst *in, const Type *arr, int npos) {
  if (arr->layout != LAYOUT_C)
    return LAYOUT_A;
  for (int p = 0, k = 1; p < npos; p++) {
    if (!is_slice(in, p)) {
      k++;
      continue;
    }
    bool has_step = at(inf, in, k + 2)->kind != TY_NONE;
    if (p != npos - 1 || has_step)
      return LAYOUT_A;
    k += 3;
  }
  return LAYOUT_C;
}

const Type *ir_infer_view(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *arr = at(inf, in, 0);
  int npos = view_positions(in), nslices = 0;
  if (npos < 0)
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: malformed array.view");
  if (!arr)
    return NULL;
  if (arr->kind == TY_TUPLE)
    return ir_infer_fail(inf, idx, E_TY_INDEX, "index the tuple with constants: t[0], t[1]",
                         "slicing a tuple is not supported");
  if (arr->kind != TY_ARRAY)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "cannot index %s", TN(arr));
  if (npos > arr->ndim)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL,
                         "too many indices for %s: %d given", TN(arr), npos);
  int state = 1;
  for (int p = 0, k = 1; p < npos; p++) {
    int r = 1;
    if (is_slice(in, p)) {
      nslices++;
      for (int j = 0; j < 3 && r >= 0; j++) {
        int s = check_part(inf, idx, k + j, need);
        r = s < r ? s : r;
      }
      k += 3;
    } else {
      r = check_int(inf, idx, k++, need);
    }
    if (r < 0)
      return NULL;
    state = r < state ? r : state;
  }
  if (state == 0)
    return NULL;
  int ndim = arr->ndim - (npos - nslices);
  Layout lay = view_layout(inf, in, arr, npos);
  return arr->readonly ? ty_array_readonly(inf->tt, arr->elem, ndim, lay)
                       : ty_array(inf->tt, arr->elem, ndim, lay);
}

/* a.T / a.transpose(): reversed axes (see the file header for the layout). */
const Type *ir_infer_transpose(Infer *inf, int idx) {
  const Type *arr = at(inf, &inf->f->insts.data[idx], 0);
  if (!arr)
    return NULL;
  if (arr->kind != TY_ARRAY)
    return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "unknown attribute 'T' of type %s", TN(arr));
  if (arr->ndim == 1)
    return arr;
  return arr->readonly ? ty_array_readonly(inf->tt, arr->elem, arr->ndim, LAYOUT_A)
                       : ty_array(inf->tt, arr->elem, arr->ndim, LAYOUT_A);
}

/* t[i] with i known only at run time: homogeneous tuples only (Numba). */
const Type *ir_infer_tuple_index(Infer *inf, int idx, const Type **need) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *t = at(inf, in, 0), *i = at(inf, in, 1);
  if (!t || !i)
    return NULL;
  if (ty_is_vector(t))
    return ir_infer_fail(inf, idx, E_TY_INDEX, "use its attributes .x .y .z .w",
                         "%s is not subscriptable or iterable", ir_infer_tname(inf, t));
  for (int k = 1; k < t->nelems; k++)
    if (t->elems[k] != t->elems[0])
      return ir_infer_fail(inf, idx, E_TY_INDEX,
                           "index it with constants, or iterate over a tuple written in the loop: "
                           "for x in (a, b, c)",
                           "cannot index %s with a value known only at run time: its elements "
                           "have different types", TN(t));
  if (t->nelems == 0)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "cannot index an empty tuple");
  if (!ty_is_int(i))
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "tuple index must be an integer, not %s", TN(i));
  set_need(need, 1, TY_I64_T);
  return t->elems[0];
}
