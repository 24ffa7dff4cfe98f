/* ops.h - the one table of kjit IR operations (X-macro).
 *
 * X(NAME, "text name", NARGS, FLAGS): NARGS is the operand count, -1 when
 * variadic.  The comment on each row says which Inst fields it uses, what its
 * operands are, and its typing.  "Before typing" = IR straight out of
 * lower/lower.c (Inst.type is NULL except where stated); "after typing" = IR
 * out of typing/infer.c, where every operand already has exactly the type the
 * operation needs (infer.c inserts OP_CAST instructions), so codegen never
 * converts implicitly.
 *
 * Value rule: an operand is always an instruction of the SAME block defined
 * earlier; values that cross blocks travel through locals (LOAD/STORE_LOCAL). */
#ifndef KJIT_IR_OPS_H
#define KJIT_IR_OPS_H

enum {
  OPF_TERM = 1,      /* block terminator */
  OPF_SIDE = 2,      /* has side effects: never removed even if unused */
  OPF_BINARY = 4,    /* arithmetic binary op typed by ty_binop */
  OPF_CMP = 8,       /* comparison: result bool, operands unified */
  OPF_UNARY = 16,    /* unary op typed by ty_unop */
};

#define IR_OPS(X)                                                              \
  /* ---- constants ---- */                                                    \
  X(CONST_INT,   "const.int",   0, 0)  /* ival; type set by lowering (int64 for */ \
                                       /* literals, the global's type for consts) */ \
  X(CONST_FLOAT, "const.float", 0, 0)  /* fval; type f64 (or f32 for a global    */ \
                                       /* np.float32(..) constant); complex128 */ \
                                       /* for 3j: fval real, fimag imaginary    */ \
  X(CONST_BOOL,  "const.bool",  0, 0)  /* ival 0/1; type bool                    */ \
  X(CONST_NONE,  "const.none",  0, 0)  /* type none                              */ \
  X(CONST_STR,   "const.str",   0, 0)  /* str; type str (print arguments only)   */ \
  /* ---- locals (mutable variables; params are locals 0..nparams-1) ---- */   \
  X(LOAD,   "load",  0, 0)             /* local; type = the local's type        */ \
  X(STORE,  "store", 1, OPF_SIDE)      /* local = args[0]; void. After typing   */ \
                                       /* args[0] has the local's type          */ \
  /* ---- arithmetic: after typing both operands have the operand type ---- */ \
  X(ADD,      "add",      2, OPF_BINARY) /* ival 1: range counter, no wrap    */ \
  X(SUB,      "sub",      2, OPF_BINARY)                                       \
  X(MUL,      "mul",      2, OPF_BINARY)                                       \
  X(TRUEDIV,  "truediv",  2, OPF_BINARY) /* int/int -> f64 (operands cast to f64) */ \
  X(FLOORDIV, "floordiv", 2, OPF_BINARY) /* Python floor semantics; int x//0 = 0 */ \
  X(MOD,      "mod",      2, OPF_BINARY) /* Python: sign of divisor; int x%0 = 0 */ \
  X(POW,      "pow",      2, OPF_BINARY) /* float**int: args[1] stays int64      */ \
  X(LSHIFT,   "shl",      2, OPF_BINARY)                                       \
  X(RSHIFT,   "shr",      2, OPF_BINARY) /* arithmetic for signed types          */ \
  X(BITAND,   "and",      2, OPF_BINARY) /* also on bool x bool -> bool          */ \
  X(BITOR,    "or",       2, OPF_BINARY)                                       \
  X(BITXOR,   "xor",      2, OPF_BINARY)                                       \
  X(NEG,      "neg",      1, OPF_UNARY)                                        \
  X(POS,      "pos",      1, OPF_UNARY)                                        \
  X(INVERT,   "invert",   1, OPF_UNARY)  /* ~x on ints; on bool: not          */ \
  X(NOT,      "not",      1, OPF_UNARY)  /* truthiness negated -> bool         */ \
  X(EQ, "eq", 2, OPF_CMP)                                                      \
  X(NE, "ne", 2, OPF_CMP)                                                      \
  X(LT, "lt", 2, OPF_CMP)                                                      \
  X(LE, "le", 2, OPF_CMP)                                                      \
  X(GT, "gt", 2, OPF_CMP)                                                      \
  X(GE, "ge", 2, OPF_CMP)                                                      \
  X(IS,    "is",     2, 0)  /* Python's identity test: typed bool; resolved   */ \
  X(ISNOT, "is.not", 2, 0)  /* after typing (typing/infer_is.c) into eq/ne or a   */ \
                            /* const.bool, so codegen never sees them         */ \
  X(ISINSTANCE, "isinstance", 1, 0) /* isinstance(args[0], classes): tyimm the */ \
                            /* class, or a tuple of classes (a scalar type; the */ \
                            /* empty tuple: any tuple; VOID: no kjit value).    */ \
                            /* Typed bool, resolved after typing into const.bool */ \
  X(CAST,  "cast",  1, 0)      /* args[0] converted to Inst.type (set by lowering */ \
                               /* for int()/float()/np.float32()...; numeric     */ \
                               /* conversions as LLVM/Numba: fptosi, trunc...);  */ \
                               /* ival 1 marks Python int()/float(), which keep  */ \
                               /* an operand of the same kind: the result type   */ \
                               /* (Inst.type) is the destination after typing    */ \
  X(TRUTH, "truth", 1, 0)      /* Python truthiness -> bool (x != 0)           */ \
  X(SELECT, "select", 3, 0)    /* args[0] (bool) ? args[1] : args[2]; after      */ \
                               /* typing args 1 and 2 have the result type       */ \
  /* ---- tuples ---- */                                                       \
  X(TUPLE,     "tuple",     -1, 0)  /* builds a tuple of args -> TY_TUPLE         */ \
  X(TUPLE_GET, "tuple.get",  1, 0)  /* args[0] tuple, ival = constant index       */ \
                                    /* (str "x".."w": v.x of a vector type)      */ \
  X(VECTOR,    "vector.make", -1, 0) /* tyimm = the vector type (cuda.float32x4);  */ \
                                    /* args: numbers (cast to its base type after */ \
                                    /* typing) and vectors of that base, n in all */ \
  /* ---- arrays (indices: after typing each index is int64, or one tuple) ---- */ \
  X(ARRAY_LOAD,  "array.load",  -1, 0)        /* args[0]=array, args[1..] indices; */ \
                                              /* negative indices wrap (Numba);    */ \
                                              /* ival > 0 (LOAD and STORE): made   */ \
                                              /* by kjit, in bounds, no wrap, the  */ \
                                              /* address aligned to ival bytes     */ \
  X(ARRAY_STORE, "array.store", -1, OPF_SIDE) /* args[0]=array, args[1]=value,     */ \
                                              /* args[2..] indices; value cast to  */ \
                                              /* the dtype after typing. LOAD and  */ \
                                              /* STORE: str = a PTX cache operator */ \
                                              /* ("ca", "cg", ...) or NULL         */ \
  X(ARRAY_VIEW,  "array.view",  -1, 0)  /* args[0]=array, then one entry per   */ \
                                        /* index position p in order: an int    */ \
                                        /* (1 operand), or where bit p of ival  */ \
                                        /* is set a slice (3 operands start,    */ \
                                        /* stop, step: int, or none if omitted);*/ \
                                        /* after typing ints are int64. Result: */ \
                                        /* a view, layout by Numba's rule       */ \
                                        /* (infer_view.c); slices clamp as      */ \
                                        /* Python's slice.indices               */ \
  X(ARRAY_T,     "array.T",      1, 0)  /* a.T: shape and strides reversed      */ \
  X(ARRAY_FILL,  "array.fill",   2, OPF_SIDE) /* a[slices] = v: args[0] = the    */ \
                                        /* view, args[1] = a number (cast to the */ \
                                        /* dtype after typing) or an array      */ \
                                        /* broadcast onto the view's shape;     */ \
                                        /* a shape that does not broadcast      */ \
                                        /* raises ValueError (codegen, cg_fill.c)*/ \
  X(ARRAY_RESHAPE, "array.reshape", -1, 0) /* a.reshape(...): args[0] = C array, */ \
                                        /* then the new shape: ints, or one     */ \
                                        /* tuple of ints (int64 after typing);  */ \
                                        /* one -1 is inferred; a C view of the  */ \
                                        /* same data (lower/lower_array.c).     */ \
                                        /* ival 1/2: carray/farray(p, shape    */ \
                                        /* [, dtype]) over raw pointer args[0] */ \
  X(REC_GET,     "record.get",   1, 0)  /* args[0] record (a reference), str = */ \
                                        /* the field's name; after typing ival = */ \
                                        /* its index.  -> the field's type; a   */ \
                                        /* record field: a reference into it; a */ \
                                        /* nested array: a C array viewing it   */ \
  X(REC_SET,     "record.set",   2, OPF_SIDE) /* args[0] record, args[1] value */ \
                                        /* (cast to the field's number type     */ \
                                        /* after typing); str, ival as REC_GET  */ \
  X(TUPLE_INDEX, "tuple.index",  2, 0)  /* args[0] UniTuple, args[1] int64 index*/ \
                                        /* known only at run time (negative     */ \
                                        /* wraps; out of range gives 0)         */ \
  X(ARRAY_SHAPE, "array.shape", 1, 0)   /* ival = dim, or -1 for the whole tuple;*/ \
                                        /* -2: len() (a tuple's length folded)  */ \
  X(ARRAY_STRIDE,"array.stride",1, 0)   /* ival = dim (bytes), or -1 for tuple  */ \
  X(ARRAY_SIZE,  "array.size",  1, 0)   /* int64 product of the shape            */ \
  X(ARRAY_NDIM,  "array.ndim",  1, 0)   /* int64 constant ndim (folded by typing)*/ \
  X(SHARED_ARRAY,"shared.array",-1, OPF_SIDE) /* tyimm = array type (C layout); */ \
                                        /* shape[] = constant dims; ival = unique */ \
                                        /* id; ndim 1 with shape 0 = dynamic.     */ \
                                        /* No operands when lowering knew shape   */ \
                                        /* and dtype; else args[0] = shape value, */ \
                                        /* args[1] = dtype value, tyimm NULL, and */ \
                                        /* typing folds them (infer_ctvalue.c)    */ \
  X(LOCAL_ARRAY, "local.array", -1, OPF_SIDE) /* same fields as SHARED_ARRAY      */ \
  X(CONST_ARRAY, "const.array", 0, 0)   /* tyimm = readonly C array type; shape[], */ \
                                        /* data = packed elements, str = the      */ \
                                        /* global's name; constant memory on GPU  */ \
  X(ARRAY_REDUCE,"array.reduce",1, 0)   /* ival = ArrayReduceKind: np.sum(a),   */ \
                                        /* a.mean(), np.count_nonzero(a)... over */ \
                                        /* every element (lower/lower_array.c)  */ \
  X(HOST_GLOBAL, "host.global", 0, 0)   /* str = a global the host binds; typing: */ \
                                        /* a NumPy array becomes CONST_ARRAY, a    */ \
                                        /* device array stays: tyimm = its type,   */ \
                                        /* shape[0..2n) = extents then strides,    */ \
                                        /* ival = its address                      */ \
                                        /* (typing/infer_host_global.c)            */ \
  /* ---- CUDA special registers (int32 results, as Numba types them) ---- */  \
  X(THREAD_IDX, "tid",    0, 0)   /* ival = 0,1,2 for x,y,z                     */ \
  X(BLOCK_IDX,  "ctaid",  0, 0)                                                \
  X(BLOCK_DIM,  "ntid",   0, 0)                                                \
  X(GRID_DIM,   "nctaid", 0, 0)                                                \
  X(LANEID,     "laneid", 0, 0)                                                \
  X(WARPSIZE,   "warpsize", 0, 0)                                              \
  /* ---- synchronisation ---- */                                              \
  X(SYNCTHREADS, "syncthreads", 0, OPF_SIDE)                                   \
  X(SYNCTHREADS_COUNT, "syncthreads.count", 1, OPF_SIDE) /* int32 result;      */ \
  X(SYNCTHREADS_AND,   "syncthreads.and",   1, OPF_SIDE) /* args[0] is cast to  */ \
  X(SYNCTHREADS_OR,    "syncthreads.or",    1, OPF_SIDE) /* int32 after typing  */ \
  X(SYNCWARP,  "syncwarp", 1, OPF_SIDE)       /* args[0] mask (uint32 after typing) */ \
  X(FENCE,     "fence",    0, OPF_SIDE)       /* ival: 0 block, 1 device, 2 system  */ \
  X(GRID_GROUP, "grid.group", 0, OPF_SIDE)    /* cuda.cg.this_grid() -> GridGroup;  */ \
                                              /* marks the kernel cooperative      */ \
  X(GRID_SYNC,  "grid.sync",  1, OPF_SIDE)    /* g.sync(): args[0] GridGroup; a     */ \
                                              /* barrier of every thread of the    */ \
                                              /* grid -> int32 0 (lower/lower_builtins.c) */ \
  /* ---- warp collectives: args[0] = mask (uint32 after typing); OPF_SIDE */ \
  /*      keeps them in place (every lane of the mask must reach them) ---- */ \
  X(SHFL,  "shfl",  3, OPF_SIDE) /* ival = ShflMode; args[1] value (int32/64,  */ \
                                 /* uint32/64, float32/64), args[2] lane,       */ \
                                 /* delta or lane mask (int32); -> value's type */ \
  X(VOTE,  "vote",  2, OPF_SIDE) /* ival = VoteKind; args[1] pred (bool);       */ \
                                 /* all/any/eq -> bool, ballot -> int32 (Numba) */ \
  X(MATCH, "match", 2, OPF_SIDE) /* ival 0 any -> int32, 1 all -> (uint32,      */ \
                                 /* bool); args[1] value (as for SHFL)          */ \
  X(ACTIVEMASK,  "activemask",  0, OPF_SIDE) /* uint32                          */ \
  X(LANEMASK_LT, "lanemask_lt", 0, 0)        /* uint32: (1 << laneid) - 1       */ \
  /* ---- atomics: ival = AtomicKind; args[0]=array, args[1]=index (int64 or  */ \
  /*      tuple), args[2]=value (cast to dtype), args[3]=new value for CAS;    */ \
  /*      result = old value (dtype) ---- */                                   \
  X(ATOMIC, "atomic", -1, OPF_SIDE)                                            \
  /* ---- numba.cuda.random: ival = RandomKind; args[0] = the states (a     */ \
  /*      uint64 2-d array, row i = (s0, s1)), args[1] = generator index    */ \
  /*      (int64 after typing); advances row i; -> uint64, float32/64, or   */ \
  /*      void for jump ---- */                                             \
  X(RANDOM, "random", 2, OPF_SIDE)                                             \
  /* ---- math and builtins: ival = Intrinsic id (see INTRINSICS below) ---- */ \
  X(INTRINSIC, "call.intrinsic", -1, 0)                                        \
  X(NUMFN, "numfn", -1, 0)  /* ival = NumFn (ir/numfn.h): complex(), .real,   */ \
                            /* .imag, .conjugate(), cmath.*, cuda.fp16.*      */ \
  X(BF16, "bf16", -1, 0)    /* ival = Bf16Fn (ir/bf16.h): numba.cuda.bf16.*,  */ \
                            /* and operators on bfloat16 after typing; the    */ \
                            /* operands have the function's declared types    */ \
  X(FP8, "fp8", 1, 0)      /* ival = Fp8Fn | modes (ir/fp8.h): the cvt_*    */ \
                            /* intrinsics of numba.cuda._internal.cuda_fp8   */ \
  X(LIBDEVICE, "call.libdevice", -1, 0) /* ival = LibdeviceFn (ir/libdevice_fns.h): */ \
                            /* libdevice.<f>(...); operands cast to the declared */ \
                            /* types; result the declared type or a tuple       */ \
  X(NPUFUNC, "call.ufunc", -1, 0) /* ival = NpUfunc (ir/npmath.h): np.sin(x)... */ \
                            /* on scalars; after typing every operand has the */ \
                            /* loop type, the result is it (bool for isnan..) */ \
  X(ARRAY_UFUNC, "array.ufunc", -1, OPF_SIDE) /* np.sin(x, out): ival = NpUfunc; */ \
                            /* args[0] = out (an array), then the operands:   */ \
                            /* arrays broadcast onto out's shape or numbers;  */ \
                            /* each element computed in the loop type, stored */ \
                            /* converted to out's dtype (cg_fill.c)           */ \
  /* ---- calls, output, control flow ---- */                                  \
  X(VALUE, "value", 0, 0)        /* a compile-time value: type = tyimm (TY_FUNC: */ \
                                 /* a function, TY_DTYPE: a dtype); no data     */ \
  X(ARRAY_DTYPE, "array.dtype", 1, 0) /* arr.dtype -> TY_DTYPE of its element   */ \
  X(CALL_VALUE, "call.value", -1, OPF_SIDE) /* args[0] = a function or dtype     */ \
                                 /* value, args[1..] its arguments; typing turns */ \
                                 /* it into CALL, ATOMIC or CAST by the value's  */ \
                                 /* type (infer_ctvalue.c), so none is left      */ \
  X(CALL,  "call",  -1, OPF_SIDE) /* callee (IrFunc*: generic before typing,    */ \
                                  /* the specialization after); args = actuals  */ \
  X(CALL_FOREIGN, "call.foreign", -1, OPF_SIDE) /* ext = the declared function; */ \
                                  /* args cast to its parameter types; result   */ \
                                  /* its return type (Numba's ABI, lower/foreign.c)*/ \
  X(PRINT, "print", -1, OPF_SIDE) /* args printed space-separated + newline     */ \
  /* ---- assert (lowered always, checked only where the function's debug */ \
  /*      option is on, decided by codegen): `cbr assert.on, CHECK, NEXT`; */ \
  /*      CHECK: `cbr cond, NEXT, FAIL`; FAIL: `assert.fail; br NEXT` ---- */ \
  X(ASSERT_ON,   "assert.on",   0, 0)        /* bool: debug is on; codegen  */ \
                                             /* folds the cbr that reads it */ \
  X(ASSERT_FAIL, "assert.fail", 0, OPF_SIDE) /* str = the AssertionError's  */ \
                                             /* message; loc = the assert   */ \
  X(RAISE,       "raise",       0, OPF_SIDE) /* str = "Class: message"; the */ \
                                             /* thread ends (reported with  */ \
                                             /* debug); `unreachable` next  */ \
  X(BR,    "br",    0, OPF_TERM)  /* target = block                             */ \
  X(CBR,   "cbr",   1, OPF_TERM)  /* args[0] bool; target / target2             */ \
  X(RET,   "ret",  -1, OPF_TERM)  /* 0 or 1 operand; after typing cast to the   */ \
                                  /* function's return type                     */ \
  X(UNREACHABLE, "unreachable", 0, OPF_TERM)

typedef enum IrOp {
#define X(name, text, nargs, flags) OP_##name,
  IR_OPS(X)
#undef X
  OP__COUNT
} IrOp;

/* OP_SHFL modes, in PTX's order (shfl.sync.idx/up/down/bfly). */
typedef enum ShflMode { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_BFLY } ShflMode;
/* OP_VOTE kinds, in PTX's order (vote.sync.all/any/uni/ballot). */
typedef enum VoteKind { VOTE_ALL, VOTE_ANY, VOTE_EQ, VOTE_BALLOT } VoteKind;

/* OP_RANDOM kinds: numba.cuda.random's xoroshiro128p_<kind>. */
typedef enum RandomKind {
  RK_NEXT, RK_UNIFORM32, RK_UNIFORM64, RK_NORMAL32, RK_NORMAL64, RK_JUMP, RK__COUNT
} RandomKind;
/* Their Python names ("xoroshiro128p_next", ...), indexed by RandomKind. */
extern const char *const ir_random_names[RK__COUNT];

typedef enum AtomicKind {
  AK_ADD, AK_SUB, AK_AND, AK_OR, AK_XOR, AK_MAX, AK_MIN, AK_EXCH, AK_INC,
  AK_DEC, AK_CAS, AK_NANMAX, AK_NANMIN,
} AtomicKind;
/* ops.c: cuda.atomic's members in AtomicKind order (NULL-terminated), and
 * the AtomicKind of cuda.atomic.<member>, or -1. */
extern const char *const ir_atomic_names[];
int ir_atomic_kind_of(const char *member);

/* Intrinsics: I(NAME, "python name", ARITY, KIND).  KIND says how typing
 * treats them:
 *   IK_MATHF  float -> same float (f32 stays f32; ints and bools -> f64)
 *   IK_MATHF2 two floats -> unified float (ints -> f64)
 *   IK_PRED   float -> bool (isnan...)
 *   IK_TOINT  float -> int64 (math.floor etc. on Numba CUDA return... see docs)
 *   IK_SPECIAL typed case by case in infer.c */
#define INTRINSICS(I)                                                          \
  I(SQRT, "sqrt", 1, IK_MATHF) I(EXP, "exp", 1, IK_MATHF)                      \
  I(EXP2, "exp2", 1, IK_MATHF) I(EXPM1, "expm1", 1, IK_MATHF)                  \
  I(LOG, "log", 1, IK_MATHF) I(LOG2, "log2", 1, IK_MATHF)                      \
  I(LOG10, "log10", 1, IK_MATHF) I(LOG1P, "log1p", 1, IK_MATHF)                \
  I(SIN, "sin", 1, IK_MATHF) I(COS, "cos", 1, IK_MATHF)                        \
  I(TAN, "tan", 1, IK_MATHF) I(ASIN, "asin", 1, IK_MATHF)                      \
  I(ACOS, "acos", 1, IK_MATHF) I(ATAN, "atan", 1, IK_MATHF)                    \
  I(SINH, "sinh", 1, IK_MATHF) I(COSH, "cosh", 1, IK_MATHF)                    \
  I(TANH, "tanh", 1, IK_MATHF) I(ASINH, "asinh", 1, IK_MATHF)                  \
  I(ACOSH, "acosh", 1, IK_MATHF) I(ATANH, "atanh", 1, IK_MATHF)                \
  I(ERF, "erf", 1, IK_MATHF) I(ERFC, "erfc", 1, IK_MATHF)                      \
  I(GAMMA, "gamma", 1, IK_MATHF) I(LGAMMA, "lgamma", 1, IK_MATHF)              \
  I(FABS, "fabs", 1, IK_MATHF) I(CBRT, "cbrt", 1, IK_MATHF)                    \
  I(DEGREES, "degrees", 1, IK_MATHF) I(RADIANS, "radians", 1, IK_MATHF)        \
  I(FLOOR, "floor", 1, IK_SPECIAL) I(CEIL, "ceil", 1, IK_SPECIAL)              \
  I(TRUNC, "trunc", 1, IK_SPECIAL)                                             \
  I(ATAN2, "atan2", 2, IK_MATHF2) I(HYPOT, "hypot", 2, IK_MATHF2)              \
  I(COPYSIGN, "copysign", 2, IK_MATHF2) I(FMOD, "fmod", 2, IK_MATHF2)          \
  I(POWF, "pow", 2, IK_MATHF2) I(REMAINDER, "remainder", 2, IK_MATHF2)         \
  I(NEXTAFTER, "nextafter", 2, IK_MATHF2)                                      \
  I(LDEXP, "ldexp", 2, IK_SPECIAL) I(FREXP, "frexp", 1, IK_SPECIAL)            \
  I(MODF, "modf", 1, IK_SPECIAL)                                               \
  I(ISNAN, "isnan", 1, IK_PRED) I(ISINF, "isinf", 1, IK_PRED)                  \
  I(ISFINITE, "isfinite", 1, IK_PRED)                                          \
  I(FMA, "fma", 3, IK_SPECIAL)       /* cuda.fma: three floats, unified      */ \
  I(ABS, "abs", 1, IK_SPECIAL)       /* keeps the type                        */ \
  I(MIN, "min", 2, IK_SPECIAL)       /* unify; lowering folds n-ary min       */ \
  I(MAX, "max", 2, IK_SPECIAL)                                                 \
  I(ROUND, "round", 1, IK_SPECIAL)   /* -> int64, ties to even                */ \
  I(ROUNDN, "round", 2, IK_SPECIAL)  /* round(x, ndigits) -> float type of x  */ \
  I(POPC, "popc", 1, IK_SPECIAL)     /* cuda.popc/clz/ffs/brev: int -> int    */ \
  I(CLZ, "clz", 1, IK_SPECIAL) I(FFS, "ffs", 1, IK_SPECIAL)                    \
  I(BREV, "brev", 1, IK_SPECIAL)                                               \
  I(SELP, "selp", 3, IK_SPECIAL)     /* cuda.selp(pred, a, b)                 */

typedef enum IntrinsicKind { IK_MATHF, IK_MATHF2, IK_PRED, IK_SPECIAL } IntrinsicKind;

typedef enum Intrinsic {
#define I(name, py, arity, kind) IN_##name,
  INTRINSICS(I)
#undef I
  IN__COUNT
} Intrinsic;

typedef struct OpInfo { const char *name; int nargs; int flags; } OpInfo;
extern const OpInfo ir_op_info[OP__COUNT];
typedef struct IntrinsicInfo { const char *name; int arity; IntrinsicKind kind; } IntrinsicInfo;
extern const IntrinsicInfo ir_intrinsic_info[IN__COUNT];

#endif
