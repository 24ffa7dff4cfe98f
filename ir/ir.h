/* ir.h - kjit IR: functions of basic blocks of instructions, values by index.
 *
 * Pipeline (runtime/compile.c lists every pass, in order; docs/internals.md):
 *   Module (AST) --ir_lower_program--> IrProgram: one generic, untyped IrFunc
 *   per decorated function, plus folded module constants
 *   --ir_specialize--> typed clone for concrete argument types (typing/infer.c),
 *   callees specialized per call-site types --ir_verify--> codegen.
 * Invariants: an operand is an earlier instruction of the same block; a block
 * ends with exactly one terminator; after typing every Inst.type is set and
 * every operand has the type its op needs (see ops.h). */
#ifndef KJIT_IR_IR_H
#define KJIT_IR_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/diag.h"
#include "common/strbuf.h"
#include "frontend/ast.h"
#include "ir/ops.h"
#include "ir/type.h"

typedef struct IrFunc IrFunc;

/* OP_ARRAY_REDUCE's ival: Numba's whole-array reductions (arraymath.py). */
typedef enum ArrayReduceKind {
  AR_ALL, AR_ANY, AR_SUM, AR_PROD, AR_MEAN, AR_VAR, AR_STD, AR_NANSUM, AR_NANPROD,
  AR_NANMEAN, AR_NANVAR, AR_NANSTD, AR_COUNT_NONZERO,
  AR_MIN, AR_MAX, AR_ARGMIN, AR_ARGMAX, AR_NANMIN, AR_NANMAX, /* the searches */
  AR__COUNT
} ArrayReduceKind;
extern const char *const ir_array_reduce_names[AR__COUNT]; /* "sum", ... */

/* An argument frozen into a specialization: an integer (n = 0, v[0]) or a
 * tuple of n integers (a shape). */
typedef struct IrConstArg {
  bool known;
  int n;
  int64_t v[4];
} IrConstArg;
typedef struct IrExtern IrExtern;

typedef struct Inst {
  IrOp op;
  const Type *type;      /* result type; TY_VOID for none; NULL before typing */
  SrcLoc loc;            /* the source construct this op implements */
  int nargs;
  int *args;             /* operand instruction indices (arena) */
  int64_t ival;          /* CONST_INT/BOOL value, TUPLE_GET/ARRAY_SHAPE index,
                            THREAD_IDX.. dim, FENCE scope, ATOMIC kind,
                            INTRINSIC id, SHARED/LOCAL_ARRAY unique id */
  double fval;           /* CONST_FLOAT (the real part when complex) */
  double fimag;          /* CONST_FLOAT of complex type: imaginary part */
  int local;             /* LOAD/STORE: local index */
  int target, target2;   /* BR: target; CBR: true target, false target */
  const Type *tyimm;     /* CAST: destination type (= type);
                            SHARED/LOCAL_ARRAY: the array type;
                            ISINSTANCE: the class(es) */
  const int64_t *shape;  /* SHARED/LOCAL/CONST_ARRAY: ndim constant extents */
  const char *str;       /* CONST_STR text; CONST_ARRAY: the global's name; */
                         /* ASSERT_FAIL: the message */
  const void *data;      /* CONST_ARRAY: the elements, packed row-major */
  IrFunc *callee;        /* CALL */
  const IrExtern *ext;   /* CALL_FOREIGN */
} Inst;

typedef struct IrLocal {
  const char *name;      /* source name; hidden temporaries start with '$' */
  const Type *type;      /* NULL until inferred (params: from the signature) */
  SrcLoc loc;            /* first assignment (or the parameter) */
  SrcLoc type_loc;       /* the assignment that fixed the current type */
} IrLocal;

typedef struct IrBlock {
  Vec(int) insts;        /* instruction indices in order; last is a terminator */
} IrBlock;

/* A file named by `link=[...]` (CUDA C/C++ source compiled by NVRTC), as
 * written (relative to the kernel file's folder) with its location. */
typedef struct IrLink {
  const char *path;      /* the file; for inline source, a name for messages */
  const char *source;    /* inline CUDA C (cuda.CUSource("...")), else NULL */
  SrcLoc loc;            /* the string literal or the CUSource */
} IrLink;
typedef Vec(IrLink) IrLinkVec;

/* Decorator options (`@cuda.jit(...)`), also overridable at compile time. */
typedef struct FuncOptions {
  bool fastmath, debug, lineinfo, cache, narrow_typing;
  bool boundscheck;      /* check array indices (debug implies it) */
  int opt;               /* 0..3, default 3 */
  int max_registers;     /* 0 = no limit */
  int inline_mode;       /* 0 default, 1 always, 2 never */
} FuncOptions;

/* A signature from the decorator, --sig, or a call site. */
typedef struct Signature {
  const Type *ret;       /* NULL when not given (then inferred) */
  int nparams;
  const Type **params;
  SrcLoc loc;
  bool fits32;           /* launches: the arguments' IrCompile.fits32 fact */
  bool grid32;           /* launches: the geometry's IrCompile.grid32 fact */
} Signature;

struct IrFunc {
  const char *name;      /* Python name */
  const char *symbol;    /* after specialization: unique mangled symbol name */
  const Func *ast;       /* the def this came from */
  bool is_kernel;        /* @cuda.jit without device=True */
  bool is_device;        /* device=True */
  bool is_ufunc;         /* @vectorize: a device function applied elementwise
                            (lower/ufunc.h); also is_device */
  bool is_reduce;        /* @cuda.reduce: a device function reduced over arrays
                            by kernels that lower/reduce.c generates */
  bool generated;        /* made by kjit (lower/reduce.c), not written by the user */
  FuncOptions opts;
  Vec(Signature) eager;  /* signatures given in the decorator (may be empty = lazy) */
  int nparams;           /* locals[0..nparams) are the parameters */
  const Type **annotations; /* per parameter: annotated type or NULL (may be NULL) */
  Vec(IrLocal) locals;
  Vec(Inst) insts;
  Vec(IrBlock) blocks;   /* blocks.data[0] is the entry */
  const Type *ret_type;  /* after typing: void for kernels */
  bool typed;
  bool recursive;        /* specialization: on a cycle of calls (typing/infer.c):
                            codegen keeps it out of line */
  const Type *rec_ret;   /* a lazy self-recursive specialization: the return type its
                            recursive calls were given while it was typed */
  bool *narrow_locals;   /* the compile driver's narrow pass: per local, an
                            int64 whose every value fits int32 (ir_narrow_locals);
                            NULL when it did not run (codegen then computes it) */
  uint8_t *narrow_insts; /* per instruction, IR_NARROW_* (ir_narrow_insts) */
  IrFunc *generic;       /* specialization: the generic function it came from */
  IrFunc *device_twin;   /* a kernel called from GPU code: the same function as a
                            device function (numba-cuda compiles such calls so);
                            made by lowering, NULL when never called */
  bool twin;             /* this is such a device twin */
  const Diag *body_errors; /* what lowering reported in the body (text in the
                            program's arena): reported when the function is
                            compiled, as Numba reports errors per function */
  int nbody_errors;
  const struct IrConstArg *consts; /* specialization: per parameter, the constant
                            an argument was frozen to (as Numba freezes a literal
                            that a shape needs), or NULL when none was */
  IrLinkVec link;        /* `link=[...]` of the decorator */
};

/* A foreign device function: `mul = cuda.declare_device('mul_f32',
 * 'float32(float32, float32)')`, called with Numba's ABI (see lower/foreign.c). */
struct IrExtern {
  const char *name;      /* the Python name it is bound to */
  const char *symbol;    /* the C symbol */
  Signature sig;         /* scalar parameters; ret may be void */
  IrLinkVec link;        /* declare_device(..., link=[...]) */
  SrcLoc loc;
  bool c_abi;            /* abi='c': `T f(args)`; else Numba's `int f(T *ret, args)` */
  bool failed;           /* the declaration was rejected (calls stay quiet) */
};

/* A folded module constant: `TPB = 16`, `N = 1 << 20`, `SHAPE = (16, 16)`. */
typedef struct IrGlobal {
  const char *name;
  const Type *type;      /* scalar type, a tuple, or a readonly C array */
  int64_t ival;          /* int/bool value */
  double fval;           /* float value (complex: the real part) */
  double fimag;          /* complex: the imaginary part */
  int nelems;            /* tuple: element count, elements in elems */
  struct IrGlobal *elems;
  const int64_t *shape;  /* read-only array (np.array literal): its extents */
  const void *data;      /* read-only array: elements packed row-major (dtype) */
  SrcLoc loc;
} IrGlobal;

/* A module-level global that does not fold to a constant but whose value is
 * a call (`A = np.random.rand(16)`, `D = cuda.device_array(8, np.float32)`):
 * Numba reads such a global when the kernel compiles, so the host binds it
 * to an array (kjit_program_set_global) and typing reads the binding
 * (typing/infer_host_global.c).  By Numba's rule a NumPy array is frozen as a read-only
 * constant (its bytes copied at bind time) while a device array global is
 * captured by reference (its address embedded; kernels may write it). */
typedef struct IrHostGlobal {
  const char *name;
  SrcLoc loc;            /* the top-level assignment */
  const char *what;      /* the call as written, "np.random.rand(...)" */
  bool byref;            /* a device array (cuda.to_device/device_array...) */
  bool bound;            /* the host gave it an array */
  const Type *elem;      /* bound: the element type */
  int ndim;              /* bound: 1 to 4 */
  int64_t shape[4];      /* bound: extents */
  int64_t strides[4];    /* bound, byref: byte strides (const: C order) */
  const void *data;      /* bound, const: elements packed row-major (program arena) */
  uint64_t addr;         /* bound, byref: the data address kernels use */
  const struct IrGlobal *frozen; /* cuda.to_device(<constants>): the folded
                            array kernels read while nothing is bound, else NULL */
} IrHostGlobal;

/* A namedtuple class of the kernel file: `Point = namedtuple('Point',
 * ['x', 'y'])` or `class Point(NamedTuple): x: float; y: float`
 * (lower/namedtuple.c).  Its instances are Numba's NamedTuple/NamedUniTuple:
 * tuples whose elements are also fields. */
typedef struct IrNamedTuple {
  const char *name;      /* the module name it is bound to (Point) */
  const char *tname;     /* the class name given (namedtuple('Point', ...)) */
  int nfields;
  const char **fields;   /* nfields names, in order */
  SrcLoc loc;
} IrNamedTuple;

/* Long-lived: one loaded kernel file. */
typedef struct IrProgram {
  Arena *arena;          /* owns the AST, generic IR, interned types */
  const Source *src;
  Module *ast;
  TypeTable *types;
  Vec(IrFunc *) funcs;   /* generic IR of every decorated function, source order */
  Vec(IrGlobal) globals;
  Vec(IrExtern) externs; /* cuda.declare_device bindings, source order */
  Vec(IrHostGlobal) host_globals; /* globals the host binds (above) */
  Vec(IrNamedTuple *) namedtuples; /* namedtuple classes, source order */
} IrProgram;

/* One specialization request: typed IR for an entry function and every
 * callee, in an arena dropped when the compile returns. */
typedef struct IrCompile {
  IrProgram *prog;
  Arena *arena;
  Diags *diags;
  Vec(IrFunc *) funcs;   /* typed functions: [0] = entry, then callees */
  const FuncOptions *override; /* compile-time option overrides or NULL */
  bool fits32;           /* launch fact (docs/internals.md "32-bit arithmetic
                            where provably the same"): every array argument's
                            extents and byte span are below 2^31 */
  bool grid32;           /* launch fact (docs/internals.md, the same section):
                            gridDim.d * blockDim.d <= 2^31 - 1 in every
                            dimension d, so cuda.grid() and cuda.gridsize()
                            fit int32 */
} IrCompile;

/* ir/ir.c: the function named `name` of p, or NULL. */
IrFunc *ir_find_func(IrProgram *p, const char *name);
/* ir/ir.c: the global the host may bind under `name`, or NULL. */
IrHostGlobal *ir_host_global_find(const IrProgram *p, const char *name);

/* ir/ir.c: appends f's body errors (IrFunc.body_errors) to d once per
 * list: a second call for the same function adds nothing.  Returns whether
 * f has any. */
bool ir_report_body_errors(const IrFunc *f, Diags *d);

/* ir/ssa.c: give each assignment of a re-bound variable its own local and
 * each set of assignments reaching a read a join local (Numba's SSA and phi
 * typing); run on a clone before typing. */
void ir_split_locals(Arena *a, IrFunc *f);

/* ir/narrow.c: which int64 locals of f (a typed function of c) provably
 * hold only values in [-2^31, 2^31): range() counters and their bounds.
 * narrow[i] is set for each (f->locals.len entries, caller-owned); codegen
 * keeps such a local in 32 bits.  Returns the number set. */
int ir_narrow_locals(const IrCompile *c, const IrFunc *f, bool *narrow);
/* ir/narrow.c: per instruction of f (f->insts.len entries, caller-owned),
 * what codegen may emit in 32 bits with the same int64 result:
 * IR_NARROW_GRID marks cuda.grid()'s int64 sum tid.x + ctaid.x * ntid.x
 * under c->grid32, whose value lies in [0, 2^31); IR_NARROW_CMP marks an int64 comparison whose operands
 * provably lie in [-2^31, 2^31) (grid indices under grid32, extents of the
 * kernel's array arguments under fits32, constants, + - * of those).
 * Returns the number marked. */
enum { IR_NARROW_GRID = 1, IR_NARROW_CMP = 2 };
int ir_narrow_insts(const IrCompile *c, const IrFunc *f, uint8_t *mark);
/* ir/narrow.c: c->fits32, cleared when a host-bound array of the program
 * breaks it (launches check only the arguments). */
bool ir_compile_fits32(const IrCompile *c);

/* ir/verify.c: structural and (when typed) type checks.  Internal errors are
 * reported as diagnostics with code E599, never aborts. */
bool ir_verify(const IrFunc *f, Diags *diags);

/* ir/print.c: the stable text form (--emit kir). */
void ir_print_func(const IrFunc *f, StrBuf *sb);
void ir_print_compile(const IrCompile *c, StrBuf *sb);

/* ir/ir.c: bytes of a shared or local array allocation with a known shape
 * (saturating at INT64_MAX: extents are any int64); 0 for a dynamic one. */
int64_t ir_alloc_bytes(const Inst *in);
/* Local memory a thread may use, as on every CUDA GPU (512 KiB); the
 * local arrays of one function must fit in it. */
#define IR_MAX_LOCAL_BYTES (512 * 1024)
/* Basic blocks of one function (an `if` makes two): LLVM's optimizer and
 * kjit's SSA split grow quadratically with them (2,000 ifs: ~25 s and 1 GB;
 * 4,000: 260 s and 8 GB), so a larger function is refused with a hint
 * instead of exhausting the machine (docs/reliability.md, "Limits"). */
#define IR_MAX_BLOCKS 5000

/* ir/ir.c: construction helpers used by lowering and typing. */
IrFunc *ir_func_new(Arena *a, const char *name);
int ir_block_new(Arena *a, IrFunc *f);
int ir_emit(Arena *a, IrFunc *f, int block, IrOp op, SrcLoc loc, const int *args, int nargs);
int ir_local_new(Arena *a, IrFunc *f, const char *name, SrcLoc loc);
int ir_local_find(const IrFunc *f, const char *name);
IrFunc *ir_func_clone(Arena *a, const IrFunc *f);
bool ir_block_terminated(const IrFunc *f, int block);

#endif
