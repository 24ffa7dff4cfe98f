/* infer_record.c - typing of record (structured dtype) accesses.
 *
 * Lowering cannot know which values are records, so `r.x` arrives as
 * REC_GET, `r.x = v` as REC_SET, and `r['x']` / `r['x'] = v` as array
 * loads and stores indexed by a string constant; the rules here type them
 * as Numba's RecordAttribute and StaticGetItemRecord do and rewrite the
 * array forms into REC_GET / REC_SET once the base is known to be a record.
 * A record value is a reference: writes through it change the array it was
 * taken from (Numba's Record data model).  Like Numba on CUDA, a field that
 * is not aligned to its natural alignment is refused ("... is not aligned"),
 * since GPU loads must be aligned.  A string field (NumPy 'S<n>' / 'U<n>')
 * takes a constant of its kind (bytes / str), as Numba's casts from Bytes
 * to CharSeq and from unicode to UnicodeCharSeq; reading one is refused. */
#include "typing/typing_internal.h"

#define TN(t) ir_infer_tname(inf, (t))

static const Type *at(const Infer *inf, const Inst *in, int k) {
  if (k < 0 || k >= in->nargs)
    return NULL;
  const Type *t = inf->f->insts.data[in->args[k]].type;
  return t && t->kind != TY_UNKNOWN ? t : NULL;
}

static void set_need(const Type **need, int k, const Type *t) {
  if (need)
    need[k] = t;
}

/* The names of rec's fields, for messages: ('x', 'y'). */
static const char *field_list(Infer *inf, const Type *rec) {
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "(");
  for (int i = 0; i < rec->nelems; i++)
    sb_printf(&sb, "%s'%s'", i ? ", " : "", rec->fnames[i]);
  sb_puts(&sb, rec->nelems == 1 ? ",)" : ")");
  char *s = arena_strdup(inf->c->arena, sb.data ? sb.data : "()");
  sb_free(&sb);
  return s;
}

/* The index of field `name` of rec, or -1 after an error. */
static int find_field(Infer *inf, int idx, const Type *rec, const char *name) {
  int k = ty_record_field(rec, name);
  if (k < 0)
    ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "Field '%s' was not found in record with fields %s",
                  name ? name : "", field_list(inf, rec));
  return k;
}

/* Numba's sentry_record_alignment: a field must sit at a multiple of its
 * (element) alignment. */
static bool check_aligned(Infer *inf, int idx, const Type *rec, int k) {
  const Type *ft = rec->elems[k];
  if (ft->kind == TY_NESTED)
    ft = ft->elem;
  if (rec->offsets[k] % ty_align(ft) == 0)
    return true;
  ir_infer_fail(inf, idx, E_TY_ATTR, "make the dtype with align=True (np.dtype([...], align=True))",
                "%s.%s of type %s is not aligned", TN(rec), rec->fnames[k], TN(ft));
  return false;
}

/* The type reading field k gives: a nested array reads as a C array. */
static const Type *field_value(Infer *inf, const Type *ft) {
  if (ft->kind == TY_NESTED)
    return ty_array(inf->tt, ft->elem, ft->ndim, LAYOUT_C);
  return ft;
}

const Type *ir_infer_rec_get(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *r = at(inf, in, 0);
  if (!r)
    return NULL;
  if (r->kind != TY_RECORD)
    return ir_infer_fail(inf, idx, E_TY_ATTR,
                         r->kind == TY_ARRAY ? "arrays support .shape, .size, .ndim, .strides, .T "
                                               "and .dtype; a record field is a[i].x"
                                             : NULL,
                         "unknown attribute '%s' of type %s", in->str ? in->str : "", TN(r));
  int k = find_field(inf, idx, r, in->str);
  if (k < 0 || !check_aligned(inf, idx, r, k))
    return NULL;
  if (r->elems[k]->kind == TY_CHARSEQ)
    return ir_infer_fail(inf, idx, E_NOTYET,
                         "a string field can be assigned a constant (r.s = 'abc') and copied with "
                         "its record (a[0] = a[1])",
                         "reading string field '%s' of type %s is not supported", r->fnames[k],
                         TN(r->elems[k]));
  in->ival = k;
  return field_value(inf, r->elems[k]);
}

/* A value stored into field type ft: numbers convert as array stores do
 * (complex only into complex); a record of the same type is copied. */
static bool storable(const Type *v, const Type *ft) {
  if (ft->kind == TY_CHARSEQ) /* Numba: str into [unichr x n], bytes into [char x n] */
    return v->kind == (ft->elem == TY_U32_T ? TY_STR : TY_BYTES);
  if (ft->kind == TY_RECORD)
    return ty_record_layout_eq(v, ft);
  if (ft->kind == TY_NESTED) /* Numba copies the field's element count from the data */
    return v->kind == TY_ARRAY && v->elem == ft->elem && v->layout == LAYOUT_C;
  return ty_is_number(v) && (!ty_is_complex(v) || ty_is_complex(ft));
}

/* The read-only array record value v was taken from (a[i], a[i].sub, a
 * record variable holding one), or NULL: its fields are read-only too. */
static const Type *readonly_source(const Infer *inf, int v, int depth) {
  if (depth > 8 || v < 0 || v >= inf->f->insts.len)
    return NULL;
  const Inst *d = &inf->f->insts.data[v];
  if (d->op == OP_REC_GET && d->nargs >= 1)
    return readonly_source(inf, d->args[0], depth + 1);
  if (d->op == OP_LOAD) { /* a record variable: what any store put in it */
    for (int i = 0; i < inf->f->insts.len; i++) {
      const Inst *st = &inf->f->insts.data[i];
      const Type *a = st->op == OP_STORE && st->local == d->local && st->nargs >= 1
                          ? readonly_source(inf, st->args[0], depth + 1)
                          : NULL;
      if (a)
        return a;
    }
    return NULL;
  }
  const Type *a = d->op == OP_ARRAY_LOAD && d->nargs >= 1 ? at(inf, d, 0) : NULL;
  return a && a->kind == TY_ARRAY && a->readonly ? a : NULL;
}

const Type *ir_infer_rec_set(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *r = at(inf, in, 0), *v = at(inf, in, 1);
  if (!r || !v)
    return NULL;
  if (r->kind != TY_RECORD)
    return ir_infer_fail(inf, idx, E_TY_ATTR,
                         r->kind == TY_ARRAY ? "array attributes are read-only" : NULL,
                         "cannot assign to attribute '%s' of type %s", in->str ? in->str : "",
                         TN(r));
  int k = find_field(inf, idx, r, in->str);
  if (k < 0 || !check_aligned(inf, idx, r, k))
    return NULL;
  const Type *ro = readonly_source(inf, in->args[0], 0);
  if (ro)
    return ir_infer_fail(inf, idx, E_TY_READONLY,
                         "constant and read-only arrays of records cannot be written: copy the "
                         "values into an output array first",
                         "cannot modify field '%s' of a record of readonly array of type %s",
                         r->fnames[k], TN(ro));
  const Type *ft = r->elems[k];
  if (!storable(v, ft))
    return ir_infer_fail(inf, idx, E_TY_CONVERT,
                         ft->kind == TY_NESTED   ? "assign a C-contiguous array of the field's "
                                                   "dtype, or its elements: r.v[0] = x"
                         : ft->kind == TY_CHARSEQ ? (ft->elem == TY_U32_T
                                                        ? "a unicode field ('U<n>') takes a str "
                                                          "constant: r.s = 'abc'"
                                                        : "a bytes field ('S<n>') takes a bytes "
                                                          "constant: r.s = b'abc'")
                                                 : NULL,
                         "cannot store %s into field '%s' of type %s", TN(v), r->fnames[k], TN(ft));
  in->ival = k;
  set_need(need, 1, ty_is_number(ft) ? ft : NULL); /* records and arrays are copied as bytes */
  return TY_VOID_T;
}

/* r['x'] / r[0] on a record: the index is a string or integer constant
 * (Numba's static_getitem); rewritten into the REC_GET it is. */
const Type *ir_infer_rec_index(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *r = at(inf, in, 0);
  const Inst *ix = in->nargs == 2 ? &inf->f->insts.data[in->args[1]] : NULL;
  if (ix && ix->op == OP_CONST_INT && ix->ival >= 0 && ix->ival < r->nelems)
    in->str = r->fnames[ix->ival];
  else if (ix && ix->op == OP_CONST_STR)
    in->str = ix->str;
  else if (ix && ix->op == OP_CONST_INT)
    return ir_infer_fail(inf, idx, E_TY_INDEX, NULL, "Requested index %lld is out of range",
                         (long long)ix->ival);
  else
    return ir_infer_fail(inf, idx, E_TY_INDEX, "index a record with a field name: r['x']",
                         "cannot index %s with a value known only at run time", TN(r));
  in->op = OP_REC_GET;
  in->nargs = 1;
  return ir_infer_rec_get(inf, idx);
}

/* r['x'] = v: rewritten into REC_SET (operands: the record, the value). */
const Type *ir_infer_rec_store(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *r = at(inf, in, 0);
  const Inst *ix = in->nargs == 3 ? &inf->f->insts.data[in->args[2]] : NULL;
  if (ix && ix->op == OP_CONST_INT && ix->ival >= 0 && ix->ival < r->nelems)
    in->str = r->fnames[ix->ival];
  else if (ix && ix->op == OP_CONST_STR)
    in->str = ix->str;
  else
    return ir_infer_fail(inf, idx, E_TY_INDEX, "index a record with a field name: r['x'] = v",
                         "cannot assign to %s with this index", TN(r));
  in->op = OP_REC_SET;
  in->nargs = 2;
  return ir_infer_rec_set(inf, idx, need);
}
