/* ast.h - the syntax tree of a kernel file, produced by parse_module.
 *
 * One tagged Node type for expressions and statements.  Each ND_ member below
 * names the fields it uses; unused fields are NULL/0.  Every node carries the
 * source span of the construct (for a binary op: the whole expression; the
 * operator's own position is in oploc).  The tree is allocated from the
 * compile's Arena and is immutable after parsing. */
#ifndef KJIT_FRONTEND_AST_H
#define KJIT_FRONTEND_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/diag.h"
#include "common/strbuf.h"

typedef struct Node Node;
typedef Vec(Node *) NodeList;

/* Operators, shared by ND_BINOP, ND_UNARY, ND_AUGASSIGN, ND_COMPARE, ND_BOOLOP. */
typedef enum AstOp {
  AOP_ADD, AOP_SUB, AOP_MUL, AOP_MATMUL, AOP_DIV, AOP_FLOORDIV, AOP_MOD, AOP_POW,
  AOP_LSHIFT, AOP_RSHIFT, AOP_BITAND, AOP_BITOR, AOP_BITXOR,
  AOP_NEG, AOP_POS, AOP_INVERT, AOP_NOT,                 /* unary */
  AOP_EQ, AOP_NE, AOP_LT, AOP_LE, AOP_GT, AOP_GE,        /* comparisons */
  AOP_IS, AOP_ISNOT, AOP_IN, AOP_NOTIN,
  AOP_AND, AOP_OR,                                       /* boolean */
} AstOp;

typedef enum NodeKind {
  /* ---- expressions ---- */
  ND_INT,       /* ival (value fits int64) ; big: literal did not fit int64 (error later) */
  ND_FLOAT,     /* fval (also imaginary literals: imag=true) */
  ND_BOOL,      /* ival 0/1 */
  ND_NONE,      /* None */
  ND_STR,       /* str: decoded text (adjacent literals concatenated); bytes=true for b'' ;
                   fstring=true when any part was an f-string (then str is the raw text) */
  ND_ELLIPSIS,  /* ... */
  ND_NAME,      /* name */
  ND_ATTR,      /* lhs.name */
  ND_SUBSCRIPT, /* lhs[rhs]; a[i, j] has rhs = ND_TUPLE(i, j) */
  ND_SLICE,     /* lhs:rhs:third, each may be NULL (only inside a subscript) */
  ND_CALL,      /* lhs(args..., kwargs...) ; args: positional Nodes (ND_STARRED for *x),
                   args2: ND_KEYWORD nodes (name=value, or name NULL for **x); oploc '(' */
  ND_KEYWORD,   /* name=lhs (inside a call) ; name NULL for **lhs */
  ND_STARRED,   /* *lhs */
  ND_BINOP,     /* lhs op rhs */
  ND_UNARY,     /* op lhs */
  ND_BOOLOP,    /* args[0] op args[1] op ... (op is AOP_AND or AOP_OR) */
  ND_COMPARE,   /* args[0] ops[0] args[1] ops[1] args[2] ... (chained comparison);
                   ops holds AstOp values, args.len == ops.len + 1 */
  ND_IFEXP,     /* lhs if cond else rhs */
  ND_TUPLE,     /* (args...) */
  ND_LIST,      /* [args...]  (parsed so it can be rejected by name) */
  ND_DICT,      /* {args: args2} ; for `**m` the key in args is NULL */
  ND_SET,       /* {args} */
  ND_LAMBDA,    /* lambda: params and body not kept */
  ND_COMPREHENSION, /* list/set/dict comprehension or generator expression: str "list",
                   "set", "dict" or "generator"; lhs element (dict: key, rhs value);
                   args: one ND_FOR per clause (lhs target, rhs iterable, args ifs) */
  ND_YIELD,     /* yield / yield from / await (rejected later): name says which; lhs operand */
  ND_NAMEDEXPR, /* name := lhs */

  /* ---- statements ---- */
  ND_EXPR_STMT, /* lhs */
  ND_ASSIGN,    /* args (targets, >= 1, for a = b = value) = rhs */
  ND_AUGASSIGN, /* lhs op= rhs */
  ND_ANNASSIGN, /* lhs : third = rhs  (third: the annotation; rhs may be NULL) */
  ND_IF,        /* if cond: body  else: orelse (elif = ND_IF alone in orelse) */
  ND_WHILE,     /* while cond: body else: orelse */
  ND_FOR,       /* for lhs in rhs: body else: orelse ; lhs is ND_NAME or ND_TUPLE (nested)
                   of targets, rhs the iterable (ND_TUPLE for `in a, b`) */
  ND_BREAK, ND_CONTINUE, ND_PASS,
  ND_RETURN,    /* return lhs (lhs NULL for bare return) */
  ND_FUNCDEF,   /* nested def: func (see Func), name */
  ND_CLASS,     /* class name: ... (body not kept; loc is the keyword) */
  ND_TRY,       /* try: ... (body not kept) */
  ND_WITH,      /* with ...: (body not kept) */
  ND_RAISE,     /* raise lhs [from rhs] */
  ND_ASSERT,    /* assert cond, rhs */
  ND_DEL,       /* del args (one node per target) */
  ND_GLOBAL,    /* global / nonlocal: args ND_NAME nodes (str holds the keyword) */
  ND_IMPORT,    /* import inside a function (rejected), str: first module; top-level
                   imports go to Module */
  ND_MATCH,     /* match statement (rejected) */
  ND_ASYNC,     /* async def/for/with (rejected) */
} NodeKind;

typedef struct Param {
  const char *name;
  Node *annotation; /* optional: `x: float32[:]` */
  Node *deflt;      /* optional default value (rejected for kernels) */
  SrcLoc loc;
  bool star;        /* *args or **kwargs; a bare `*` has name "*"; `/` is dropped */
  bool dstar;       /* **kwargs (star is set too) */
} Param;

typedef Vec(Param) ParamList;

typedef struct Func {
  const char *name;
  SrcLoc loc;               /* the name in `def name` */
  ParamList params;
  NodeList decorators;      /* expressions after '@', in source order */
  NodeList body;            /* statements */
  Node *returns;            /* `-> annotation` or NULL */
  bool has_kwonly;          /* set by lowering when it drops a bare `*`: */
  int kwonly;               /* params[kwonly..] are keyword-only */
  bool host_only;           /* undecorated top-level def whose body did not parse:
                               treated as host code, body left empty, no diagnostics */
} Func;

struct Node {
  NodeKind kind;
  SrcLoc loc;      /* whole construct */
  SrcLoc oploc;    /* operator / keyword position where useful */
  AstOp op;
  Node *lhs, *rhs, *third, *cond;
  NodeList args, args2, body, orelse;
  Vec(int) ops;    /* ND_COMPARE only */
  const char *name;
  const char *str;
  size_t strlen;   /* ND_STR: byte length (may contain NULs) */
  int64_t ival;
  double fval;
  Func *func;      /* ND_FUNCDEF */
  bool big;        /* ND_INT too large for int64: a uint64 (ival its bits) unless huge */
  bool huge;       /* ND_INT too large for uint64 */
  bool imag;       /* ND_FLOAT: j suffix */
  bool bytes;      /* ND_STR: bytes literal */
  bool fstring;    /* ND_STR: contains an f-string part */
  int bodycol;     /* ND_STR: column where str starts in the source line when it is
                      one literal's text verbatim (diagnostics inside it); else 0 */
};

/* import numba.cuda as nc ; from numba import cuda, float32 as f32 ; import math */
typedef struct Import {
  const char *module;  /* full dotted module path: "numba.cuda", "math", "numpy" */
  const char *name;    /* imported member for `from M import name` ("*" for a star
                          import, with alias "*"), else NULL */
  const char *alias;   /* local name bound (alias or the last/first component) */
  SrcLoc loc;
} Import;

/* A top-level `NAME = expr` whose expression parsed; whether it is a
 * compile-time constant is decided later (constant folding). */
typedef struct GlobalAssign {
  const char *name;
  Node *value;
  SrcLoc loc;
} GlobalAssign;

typedef Vec(GlobalAssign) GlobalList;
typedef Vec(Func *) FuncList;

typedef struct Module {
  const Source *src;
  Vec(Import) imports;
  GlobalList globals;         /* in source order; a later one shadows an earlier */
  FuncList funcs;             /* every top-level def (decorated or not) */
} Module;

/* Parse a whole file.  Syntax errors go to diags; the returned Module holds
 * whatever parsed (never NULL).  Top-level statements other than imports,
 * defs and simple assignments are tokenized and skipped (host code), as are
 * top-level assignments whose value does not parse.  A decorated top-level
 * def with syntax errors reports them; an undecorated one is host code: it
 * is recorded with host_only set and an empty body, without diagnostics.
 * Tokenizer errors (unterminated strings, ...) are reported everywhere. */
Module *parse_module(Arena *arena, const Source *src, Diags *diags);

/* Parse a single expression (used for signature strings and tests); a
 * comma list gives ND_TUPLE.  Returns NULL after a syntax error. */
Node *parse_expression(Arena *arena, const Source *src, Diags *diags);

const char *ast_op_str(AstOp op);        /* "+", "//", "not in", ... */
const char *ast_kind_name(NodeKind k);   /* "list literal", "class definition", ... for messages */
/* -9223372036854775808: a minus applied to the literal 2**63, the one
 * literal too large for int64 whose negation is an int64 (INT64_MIN). */
bool ast_is_int64_min(const Node *n);
/* Append a stable, indented S-expression dump of m (imports, globals, funcs;
 * every node with its kind and line:col) to sb.  Used by golden tests. */
void ast_dump_module(const Module *m, StrBuf *sb);

#endif
