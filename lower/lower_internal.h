/* lower_internal.h - state and helpers shared by the AST -> IR lowering files
 * (lower.c: the program; lower_emit.c: emission primitives; lower_stmt.c:
 * statements; lower_expr.c: expressions;
 * lower_builtins.c: Python builtins and the CUDA API; consts.c: module
 * constants, imports and compile-time folding).  Private to lower/ (the
 * public side is lower/lower.h).
 *
 * Key invariant: ops.h's value rule (an operand is an earlier instruction of
 * the same block).  lower_emit enforces it by itself: an operand defined in
 * another block is spilled retroactively (a STORE to a hidden local inserted
 * just before that block's terminator, a LOAD here), so expression code may
 * freely combine values across short-circuit control flow. */
#ifndef KJIT_LOWER_INTERNAL_H
#define KJIT_LOWER_INTERNAL_H

#include "lower/lower.h"

/* Diagnostic codes: common/diag_codes.h (E2xx names and unsupported Python, E406
 * decorator options). */

/* Per-program lowering state (one ir_lower_program call). */
typedef struct NonConst {
  const char *name;     /* a top-level name whose final assignment did not fold */
  SrcLoc loc;
  const char *why;      /* why it did not fold (arena text) */
  SrcLoc why_loc;       /* np.array literals: the offending node (src NULL otherwise) */
  const char *hint;     /* np.array literals: how to fix it, or NULL */
} NonConst;

/* Why an np.array literal did not fold: where, what, and a hint. */
typedef struct NdFail {
  SrcLoc loc;
  const char *why;
  const char *hint;
} NdFail;

typedef struct LowerProg {
  IrProgram *p;
  Arena *a;
  Diags *d;
  Vec(NonConst) nonconst;
  int next_array_id;    /* unique ids of shared/local arrays, program-wide */
} LowerProg;

typedef struct LoopCtx {
  int brk, cont;        /* break / continue targets */
  struct LoopCtx *outer;
} LoopCtx;

/* Per-function lowering state. */
typedef struct Lower {
  LowerProg *lp;
  IrProgram *p;
  Arena *a;
  Diags *d;
  IrFunc *f;
  int cur;              /* block receiving instructions */
  Vec(int) inst_block;  /* block of each instruction (for the value rule) */
  LoopCtx *loop;        /* innermost loop or NULL */
  int ntemps;           /* $t counter */
  struct NestedDefs *nested; /* defs nested in this function (lower_nested.c) */
  int iter_depth;       /* zip()/enumerate() nesting being lowered (lower_iter.c) */
} Lower;

/* ---- lower_emit.c: emission helpers ---- */
int lower_emit(Lower *L, IrOp op, SrcLoc loc, const int *args, int nargs);
int lower_emit0(Lower *L, IrOp op, SrcLoc loc);
int lower_emit1(Lower *L, IrOp op, SrcLoc loc, int a0);
int lower_emit2(Lower *L, IrOp op, SrcLoc loc, int a0, int a1);
Inst *lower_inst(Lower *L, int v);
int lower_const_int(Lower *L, int64_t v, SrcLoc loc);
int lower_cast(Lower *L, int v, const Type *to, SrcLoc loc);
int lower_temp(Lower *L, SrcLoc loc);          /* new hidden local $tN */
int lower_load(Lower *L, int local, SrcLoc loc);
void lower_store(Lower *L, int local, int v, SrcLoc loc);
int lower_new_block(Lower *L);
void lower_set_block(Lower *L, int b);
void lower_br(Lower *L, int target, SrcLoc loc);
void lower_cbr(Lower *L, int cond, int t, int f, SrcLoc loc);
int lower_truth(Lower *L, int v, SrcLoc loc);  /* bool-valued v stays as is */

/* ---- lower_stmt.c: statements, function bodies, conditions ---- */
void lower_stmts(Lower *L, const NodeList *body);
/* A loop's body with its break/continue targets; its `else` (run when the
 * loop ends without break) then the exit block current. */
void lower_loop_body(Lower *L, const Node *s, int body_b, int cont, int exit_b);
void lower_loop_else(Lower *L, const Node *s, int exit_b, int else_b);
/* f's parameters as its first locals (annotations typed, defaults and
 * *args checked); then, after every def's parameters, its body (fn's);
 * lower_body_deferred keeps the body's errors on f (ir_report_body_errors)
 * rather than failing the program. */
void lower_params(LowerProg *lp, IrFunc *f, const Func *fn);
/* overload.c: the device functions @overload defs give (at most max, into
 * out); a call of a module def that an extension API needing Python while
 * compiling (@intrinsic, a typed @overload...) defines: reported, true */
int ir_lower_overloads(LowerProg *lp, Func **out, int max);
bool ir_extension_error(LowerProg *lp, const char *name, SrcLoc call);
void lower_body(LowerProg *lp, IrFunc *f, const Func *fn);
void lower_body_deferred(LowerProg *lp, IrFunc *f);

/* ---- lower_iter.c: for loops over arrays, tuples, zip, enumerate ---- */
void lower_for_iter(Lower *L, const Node *s);
/* len(range(start, stop, step)) of int64 values, as a uint64 value: exact for
 * every span (up to 2**64 - 1 values), 0 for a zero step (lower_stmt.c). */
int lower_range_len(Lower *L, int start, int stop, int step, SrcLoc loc);

/* ---- lower_func.c: decorators and options ---- */
/* Decide whether def fn is compiled; *out is the new IrFunc (NULL for host
 * code).  Returns false after reporting an error. */
bool ir_lower_funcdef(LowerProg *lp, const Func *fn, IrFunc **out);
/* 1 when d (a decorator expression, or the callee of a call-form
 * decoration) is @cuda.jit / @njit-like, else 0. */
int ir_lower_decorator_kind(LowerProg *lp, const Node *d);

/* ---- lower_ufunc.c: @vectorize ---- */
/* f (already made for fn) becomes a ufunc: the decorator d's signatures and
 * options, a body that works on scalars.  Returns false after an error. */
bool ir_lower_vectorize(LowerProg *lp, IrFunc *f, const Func *fn, const Node *d);

/* ---- reduce.c: a def decorated @cuda.reduce (decorator d) ---- */
bool ir_lower_reduce_def(LowerProg *lp, const Func *fn, const Node *d, IrFunc **out);

/* ---- lower_expr.c ---- */
int lower_expr(Lower *L, const Node *n);
/* Lower the index of a subscript into operands (one per index). */
int lower_index(Lower *L, const Node *index, int *out, int max);
void lower_assign_to(Lower *L, const Node *target, int v);

/* ---- lower_builtins.c: g.sync() -> GRID_SYNC; -1 after an error ---- */
int lower_grid_sync(Lower *L, const Node *call);
/* ---- lower_array.c: a.reshape(shape) -> ARRAY_RESHAPE; -1 after an error ---- */
int lower_reshape(Lower *L, const Node *call);
int lower_np_reshape(Lower *L, const Node *call);  /* np.reshape(a, shape) */
/* carray(ptr, shape, dtype=None) / farray(...) of numba.np.numpy_support:
 * an array over a raw pointer (ARRAY_RESHAPE with ival 1 or 2). */
int lower_carray(Lower *L, const Node *call, bool fortran);
/* ---- lower_array.c: slicing ---- */
/* base[ix] where ix holds a slice: an ARRAY_VIEW (ops.h); -1 after an error. */
int lower_view(Lower *L, const Node *ix, int base, SrcLoc loc);
/* Reports the index forms kjit rejects by name (..., None, np.newaxis, a
 * list); false after reporting. */
bool lower_check_index(Lower *L, const Node *n);
int lower_binop(Lower *L, AstOp op, int a, int b, SrcLoc loc);
int lower_operator_call(Lower *L, const char *m, const Node *call); /* operator.add(a, b) ... */
int lower_global(Lower *L, const IrGlobal *g, SrcLoc loc); /* constants / tuples */

/* ---- lower_contains.c: `x in (a, b)`, pow(), int.bit_count(), defaults ---- */
/* x in t / x not in t (negate) for a tuple t whose length lowering knows. */
int lower_contains(Lower *L, bool negate, int x, int t, SrcLoc loc);
int lower_pow_call(Lower *L, const Node *call);              /* pow(a, b) */
int lower_scalar_method(Lower *L, const Node *call);         /* -2: not one */
/* The value of parameter pm's default at a call site (a compile-time
 * constant or None); -1 after an error. */
int lower_default_arg(Lower *L, const Param *pm);
/* At the def: reports a default that is not a constant; false then. */
bool ir_check_default(LowerProg *lp, const Param *pm);

/* ---- lower_varargs.c: `def f(x, *args)` in device functions ---- */
/* The index of fn's *args parameter (its last), or -1. */
int ir_vararg_index(const Func *fn);
/* Parameter i of fn is a star: accepted only as a device function's last
 * parameter `*args`; false after reporting why not. */
bool ir_check_star_param(LowerProg *lp, const IrFunc *f, const Func *fn, int i);
/* fn without its bare `*` marker (has_kwonly/kwonly set on the copy); fn
 * itself when it has none. */
const Func *ir_strip_kwonly(LowerProg *lp, const Func *fn);
/* How many of fn's np parameters a call may fill by position (INT_MAX
 * with *args). */
int ir_npositional(const Func *fn, int np);
/* The tuple of a call's positional arguments from index va on. */
int lower_varargs(Lower *L, const Node *call, int va);

/* lower_stmt.c: jump to t when condition c is true, else to f; `and`/`or`/`not` of them
 * branch per operand. */
void lower_branch(Lower *L, const Node *c, int t, int f, SrcLoc loc);

/* ---- lower_nested.c: a def inside a function, called there ---- */
/* Lowers nested def s as a device function; false after reporting why not. */
bool lower_nested_def(Lower *L, const Node *s);
bool lower_is_nested(const Lower *L, const char *name);
/* For a call of a nested def: its function, *out the call with the free
 * variables added; NULL when call is not one. */
IrFunc *lower_nested_callee(Lower *L, const Node *call, const Node **out);
/* After the call (lowered to v): the nonlocals the def hands back assigned
 * in the caller; the call's value. */
int lower_nested_result(Lower *L, const Node *call, int v);
/* lower_stmt.c: lowers fn (its free variables already parameters) as a device
 * function named name, with outer's options. */
IrFunc *ir_lower_nested_func(LowerProg *lp, const Func *fn, const char *name, const IrFunc *outer);

/* ---- lower_builtins.c ---- */
/* A dotted canonical path ("numba.cuda.grid", "math.pi", "numpy.float32")
 * used as a value (not called). */
int lower_path_value(Lower *L, const char *path, const Node *n);
int lower_path_call(Lower *L, const char *path, const Node *call);
int lower_builtin_call(Lower *L, const char *name, const Node *call);
/* ---- lower_isinstance.c: isinstance(x, classes), decided by x's type ---- */
int lower_isinstance(Lower *L, const Node *call);
bool lower_is_builtin(const char *name);


/* ---- lower_mathfn.c: complex and float16 functions ---- */
int lower_num_complex(Lower *L, const Node *call);          /* complex(...) */
bool lower_num_is_attr(const char *name);                    /* real, imag */
int lower_num_attr(Lower *L, const Node *n, int base);
int lower_num_method(Lower *L, const Node *call);            /* -2: not one */
int lower_num_path_call(Lower *L, const char *path, const Node *call); /* -2: not one */
bool lower_num_path_const(const char *path, IrGlobal *out);  /* cmath.pi... */
/* lower_mathfn.c: numpy.<ufunc>(...) on scalars, u from ir_npufunc_find. */
int lower_np_ufunc(Lower *L, int u, const Node *call);
int lower_int_method(Lower *L, const Node *call);           /* .bit_count(); -2: not one */
/* lower_vector.c: CUDA vector types (cuda.float32x4...). */
const Type *lower_vector_type(TypeTable *tt, const char *name); /* "float4" -> float32x4 */
int lower_vector_call(Lower *L, const char *path, const Node *call); /* -2: not one */
int lower_vector_attr(Lower *L, const Node *n, int base);   /* v.x; -2: not x/y/z/w */
/* lower_mathfn.c: numba.cuda.bf16.<f>(...) and the cuda_bf16 bindings; -2
 * for other paths. */
int lower_bf16_path_call(Lower *L, const char *path, const Node *call);
/* The path names the bfloat16 type (numba.cuda.bf16.bfloat16, nv_bfloat16). */
bool lower_bf16_is_type(const char *path);
/* lower_fp8.c: numba.cuda._internal.cuda_fp8: a constructor or cvt_* call
 * (-2 for other paths), the fp8 type names, the enum members as values
 * (also cuda.bindings.runtime.cudaRoundMode's). */
int lower_fp8_path_call(Lower *L, const char *path, const Node *call);
bool lower_fp8_is_type(const char *path);
bool lower_fp8_path_const(const char *path, IrGlobal *out);
/* lower_mathfn.c: numba.cuda.libdevice.<f>(...); -2 for other paths. */
int lower_libdevice_call(Lower *L, const char *path, const Node *call);

/* ---- consts.c: names, imports, constant folding ---- */
/* Canonical path of a name bound by an import ("cuda" -> "numba.cuda"), or NULL. */
const char *ir_import_path(LowerProg *lp, const char *name);
/* The same for any program (a is where the path text goes). */
const char *ir_import_target(const IrProgram *p, Arena *a, const char *name);
/* Canonical path of a dotted expression rooted at an import, else NULL.
 * f (may be NULL) is the function whose locals shadow module names. */
const char *ir_resolve_path(LowerProg *lp, const IrFunc *f, const Node *n);
/* A dtype named by a canonical path ("numba.float32", "numpy.int64",
 * "numba.types.float32") or NULL. */
const Type *ir_path_dtype(const char *path);
/* math.pi, math.e, math.tau, math.inf, math.nan and numpy's pi/e/inf/nan. */
bool ir_path_const(const char *path, IrGlobal *out);
/* The dtype named by an expression (path or string literal), or NULL. */
const Type *ir_dtype_of(LowerProg *lp, const IrFunc *f, const Node *n);
/* Fold n to a constant.  Returns false (and sets *why when given) if it is
 * not a compile-time constant.  Names resolve to module constants unless f
 * has a local of that name. */
bool ir_fold(LowerProg *lp, const IrFunc *f, const Node *n, IrGlobal *out, const char **why);
void ir_fold_globals(LowerProg *lp);
void ir_fold_global(LowerProg *lp, const GlobalAssign *ga); /* one, as ir_fold_globals does */
/* Kernels made by factory calls at top level (`k = make_k(2)`): factory.c */
void ir_expand_factories(LowerProg *lp);
/* lower_func.c: `@FM` where `FM = cuda.jit(fastmath=True)`: the decorator
 * replaced by the variable's value, before anything reads decorators. */
void ir_expand_decorator_vars(LowerProg *lp);
/* Convert a scalar constant to scalar type t as NumPy's constructors do. */
bool ir_const_cast(const IrGlobal *g, const Type *t, IrGlobal *out, const char **why);

/* ---- sig.c ---- */
/* A name bound by a module-level assignment (`SIG = "void(float32[:])"`,
 * `sig = (float32[:],)`) stands for its value; others are returned as is. */
const Node *ir_sig_resolve(const IrProgram *p, const Node *n);

/* ---- record.c: structured dtypes named by module variables ---- */
/* n (or the module value it names) builds a record type: np.dtype([...]),
 * np.dtype({...}), numba.from_dtype(...), types.Record(...). */
bool ir_is_record_expr(const IrProgram *p, const Node *n);
/* The record type n builds, with NumPy's offsets; NULL after an error. */
const Type *ir_record_from_ast(IrProgram *p, const Node *n, Diags *d);

/* ---- foreign.c: cuda.declare_device, link= ---- */
bool ir_parse_link(LowerProg *lp, const Node *v, IrLinkVec *out);
bool ir_declare_device(LowerProg *lp, const GlobalAssign *ga); /* false after an error */

/* ---- const_array.c: module-level np.array literals ---- */
/* np.array(...), or an array expression const_array_expr.c folds */
bool ir_is_ndarray_call(LowerProg *lp, const Node *n);
/* Fold either into a read-only array constant (data, shape). */
bool ir_fold_ndarray(LowerProg *lp, const Node *call, IrGlobal *out, NdFail *fail);
/* An array being folded: dtype, shape, n elements (each already of the
 * dtype) in row-major order, in the program's arena. */
typedef struct ArrVal {
  const Type *dtype;
  int ndim;
  int64_t shape[4];
  IrGlobal *vals;
  int64_t n;
} ArrVal;
bool ir_ndarray_literal(LowerProg *lp, const Node *call, ArrVal *out, NdFail *fail);
/* Pack v into out (64 KiB of constant memory at most; `at` for errors). */
bool ir_pack_const_array(LowerProg *lp, const Node *at, const ArrVal *v, IrGlobal *out, NdFail *fail);
/* ---- const_array_expr.c: np.arange/zeros/ones/full/linspace, .astype,
 *      .reshape, .copy, np.ascontiguousarray, cuda.to_device, arithmetic
 *      with a scalar, folded at module level as Numba freezes them ---- */
bool ir_is_array_expr(LowerProg *lp, const Node *n);
bool ir_fold_array_expr(LowerProg *lp, const Node *n, IrGlobal *out, NdFail *fail);
const IrGlobal *ir_global_find(const IrProgram *p, const char *name);
/* An enum member `Color.RED` (or `Color.RED.value`), a constant named
 * "Color.RED" by the parser; NULL for anything else. */
const IrGlobal *ir_member_global(LowerProg *lp, const IrFunc *f, const Node *n);
const NonConst *ir_nonconst_find(LowerProg *lp, const char *name);
/* lower_array.c: np.sum(a)-style calls (path "numpy.sum") and a.sum()
 * methods; -2 when the name is not a reduction. */
int lower_np_reduce(Lower *L, const char *path, const Node *call);
int lower_reduce_method(Lower *L, const Node *call);
/* namedtuple.c: registers `Point = namedtuple('Point', [...])` (true when
 * ga is such a class, of at most NT_MAX_FIELDS fields).  lower_namedtuple.c:
 * Point(1.0, y=2.0) in a kernel; p.field (-2 when no class of the file has
 * that field). */
#define NT_MAX_FIELDS 16
bool ir_fold_namedtuple(LowerProg *lp, const GlobalAssign *ga);
int lower_namedtuple_new(Lower *L, const IrNamedTuple *nt, const Node *call);
int lower_field_attr(Lower *L, const Node *n, int base);
/* ir_closest (did-you-mean) is declared in ir/ir.h: the runtime uses it too. */
bool ir_starts_with(const char *s, const char *prefix);
/* A name or attribute chain as written ("cuda.threadIdx.x"), for messages. */
const char *ir_dotted(Arena *a, const Node *n);

#endif
