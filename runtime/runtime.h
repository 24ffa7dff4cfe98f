/* runtime.h - what the files of runtime/ share behind include/kjit.h.
 *
 * A kjit_context owns the last-error text and the lazily created codegen
 * session; a kjit_program owns one Arena holding the source, the AST and the
 * generic IR.  Every API call that can fail begins with rt_begin (which
 * clears the last error) and ends with rt_finish (which renders the call's
 * diagnostics into the context).  Nothing here is global. */
#ifndef KJIT_RUNTIME_RUNTIME_H
#define KJIT_RUNTIME_RUNTIME_H

#include <stdbool.h>

#include "codegen/codegen.h"
#include "common/arena.h"
#include "common/diag.h"
#include "common/strbuf.h"
#include "ir/ir.h"
#include "kjit.h"

/* Diagnostic codes of this layer (E0xx: files and the API, E49x: picking
 * the kernel, signature and target of a compile). */
enum {
  RT_E_IO = 1,            /* a file cannot be read or written */
  RT_E_ARGUMENT = 2,      /* bad argument value at the API (options) */
  RT_E_NO_KERNEL = 490,   /* no kernel of that name */
  RT_E_NO_SIGNATURE = 491,/* lazy kernel compiled without a signature */
  RT_E_NOT_VOID = 492,    /* kernel signature returns a value */
  RT_E_ARITY = 493,       /* signature and parameter counts differ */
  RT_E_ARCH = 494,        /* unknown GPU architecture */
  RT_E_SIG_SYNTAX = 402,  /* malformed signature string (ir/sig.c) */
  RT_E_INTERNAL = 599,    /* a bug in kjit (as ir_verify reports them) */
};

struct kjit_context {
  kjit_context_options opts;
  char *last_error;       /* malloc'd; "" (static) when none */
  char *last_diags;       /* malloc'd; "" (static) when none */
  char *err_file;         /* malloc'd copy of the first error's path or NULL */
  int err_line, err_col;
  CgSession *cg;          /* created on the first LLVM/PTX emit */
  kjit_program *programs; /* loaded programs, destroyed with the context */
};

struct kjit_program {
  kjit_context *ctx;
  kjit_program *next;     /* in ctx->programs */
  Arena arena;            /* source, AST, generic IR, interned types */
  Source src;
  IrProgram ir;
  Vec(IrFunc *) kernels;  /* the kernels (not device functions), source order */
};

/* One API call's diagnostics: a scratch arena for their text. */
typedef struct RtCall {
  kjit_context *ctx;
  Arena arena;
  Diags diags;
} RtCall;

/* context.c */
void rt_begin(RtCall *call, kjit_context *ctx);
/* Renders the call's diagnostics into ctx (last error / last diagnostics /
 * location), frees the scratch arena, and returns `st`, or a status derived
 * from the first error's code when st is KJIT_OK but errors were reported. */
kjit_status rt_finish(RtCall *call, kjit_status st);
kjit_status rt_status_of(const Diags *d);  /* from the first error's code */
void rt_clear_error(kjit_context *ctx);
CgSession *rt_cg_session(kjit_context *ctx); /* lazily created; NULL on failure */
void rt_unlink_program(kjit_context *ctx, kjit_program *p);

#endif
