/* kjit.h - the public C API of libkjit, and its reference manual.
 *
 * kjit compiles Numba-style CUDA kernels (Python files using `@cuda.jit`)
 * without Python.  This header is the whole public interface: the `kjit`
 * command-line tool is written against it and nothing else.
 *
 * Conventions, true of every function below unless its comment says
 * otherwise:
 *   - Every entry point returns a kjit_status; results come back through
 *     out-parameters, which are written only on success (KJIT_OK).
 *   - A NULL handle or a NULL out-parameter gives KJIT_ERROR_INVALID_ARGUMENT
 *     and changes nothing.
 *   - Errors are described on the context: kjit_last_error() returns the
 *     rendered diagnostics of the most recent failing call ("file:line:col:
 *     error: ...", the source line, a caret, a hint), and
 *     kjit_last_error_location() its source position.  Each call on a
 *     context (or on a program of that context) replaces them; the
 *     accessors themselves (kjit_last_*, kjit_program_kernel_count/name,
 *     kjit_status_name, kjit_version) and the destroy functions do not.
 *   - Strings returned as `const char *` are owned by the library; each
 *     comment says how long they stay valid.  Text returned through
 *     `char **` is malloc'd for the caller, who releases it with kjit_free().
 *   - The library never exits, aborts or prints on bad user input.
 *
 * Threads: a context and the programs loaded into it form one unit that
 * must be used by one thread at a time (the caller serialises).  Distinct
 * contexts share nothing and may be used from different threads at once.
 * kjit_status_name() and kjit_version() may be called from any thread.
 *
 * Quick start (see docs/api.md for a complete program):
 *
 *   kjit_context *ctx;  kjit_program *prog;  char *ptx;  size_t n;
 *   kjit_context_create(NULL, &ctx);
 *   if (kjit_program_load_file(ctx, "vector_add.py", &prog) != KJIT_OK)
 *     fputs(kjit_last_error(ctx), stderr);
 *   kjit_program_emit(prog, "add_kernel", NULL, NULL, KJIT_EMIT_PTX, &ptx, &n);
 *   ...  kjit_free(ptx);  kjit_program_destroy(prog);  kjit_context_destroy(ctx);
 */
#ifndef KJIT_H
#define KJIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define KJIT_API __attribute__((visibility("default")))
#else
#define KJIT_API
#endif

/* ------------------------------------------------------------ status ---- */

/* Result of every call.  Values are stable (part of the ABI). */
typedef enum kjit_status {
  KJIT_OK = 0,
  KJIT_ERROR_INVALID_ARGUMENT = 1, /* NULL handle/out-parameter, bad option
                                      value (e.g. an unknown --arch) */
  KJIT_ERROR_IO = 2,               /* a file could not be read or written */
  KJIT_ERROR_SYNTAX = 3,           /* the kernel file or a signature string
                                      does not parse */
  KJIT_ERROR_TYPE = 4,             /* unknown names, typing errors, unsupported
                                      Python, bad signatures or options */
  KJIT_ERROR_NOT_FOUND = 5,        /* no kernel of that name in the program */
  KJIT_ERROR_CODEGEN = 6,          /* LLVM / PTX generation failed */
  KJIT_ERROR_NO_DEVICE = 7,        /* a GPU was required and none is usable
                                      (reserved: launches come later) */
  KJIT_ERROR_INTERNAL = 8,         /* a bug in kjit; the message says where */
  KJIT_ERROR_OUT_OF_MEMORY = 9,
} kjit_status;

/* "KJIT_OK", "KJIT_ERROR_SYNTAX", ...; "KJIT_ERROR_UNKNOWN" for a value
 * outside the enum.  Static storage; thread-safe. */
KJIT_API const char *kjit_status_name(kjit_status status);

/* The library version, "MAJOR.MINOR.PATCH" (static storage; thread-safe). */
KJIT_API const char *kjit_version(void);

/* Releases text returned through a `char **` out-parameter.  NULL is
 * ignored.  Thread-safe. */
KJIT_API void kjit_free(void *p);

/* ----------------------------------------------------------- context ---- */

/* A context holds everything long-lived: the last error, the LLVM/libdevice
 * state shared by the compiles made through it (created on first use) and,
 * later, the device and caches.  There is no global state: two contexts
 * are fully independent. */
typedef struct kjit_context kjit_context;

/* Options for kjit_context_create.  Always start from
 * kjit_context_options_init(), then change fields: fields added by later
 * versions take their defaults from it. */
typedef struct kjit_context_options {
  int max_errors;        /* diagnostics recorded per call before the rest are
                            only counted; 0 = default (100) */
  /* Next milestone (not implemented; keep zero): the execution target
   * ("auto" | "cuda" | "cpu"), the CUDA device ordinal, the disk cache
   * directory / enable flag, and a log callback take their place here. */
  void *reserved[8];     /* must be zero (kjit_context_options_init does it) */
} kjit_context_options;

/* Fills *opts with the defaults.  NULL is ignored. */
KJIT_API void kjit_context_options_init(kjit_context_options *opts);

/* Creates a context.  opts may be NULL (= defaults); it is copied, so the
 * caller may free it on return.  On success *out owns a new context to be
 * released with kjit_context_destroy.  Errors: INVALID_ARGUMENT (out NULL,
 * non-zero reserved fields), OUT_OF_MEMORY.  Thread-safe. */
KJIT_API kjit_status kjit_context_create(const kjit_context_options *opts,
                                         kjit_context **out);

/* Destroys a context and every program still loaded in it (their handles
 * become invalid).  NULL is ignored.  Strings obtained from the context
 * (kjit_last_error, kernel names of its programs) become invalid. */
KJIT_API void kjit_context_destroy(kjit_context *ctx);

/* The rendered diagnostics of the most recent call on ctx (or on one of its
 * programs) if that call failed, "" if it succeeded or no call was made.
 * Rendering: "file:line:col: error: message", the source line, a caret line
 * "^~~~" under the culprit, then "hint: ..." where one helps; problems
 * without a source position read "kjit: error: message".  Never NULL (""
 * for ctx == NULL).  Valid until the next call on ctx. */
KJIT_API const char *kjit_last_error(const kjit_context *ctx);

/* Every diagnostic of the most recent call, errors and warnings/notes
 * alike: after a successful call this holds its warnings (or ""), after a
 * failing one the same text as kjit_last_error.  Never NULL; valid until
 * the next call on ctx. */
KJIT_API const char *kjit_last_diagnostics(const kjit_context *ctx);

/* Source position of the first error of the most recent failing call.
 * Each out-parameter may be NULL.  *file is the path as the user gave it
 * (or the name given to kjit_program_load_source, or "--sig" for a
 * signature string), valid until the next call on ctx; *line and *col are
 * 1-based (col in bytes).  Returns NOT_FOUND (outputs set to NULL/0) when
 * the last call succeeded or its error has no source position (e.g. a
 * missing file); INVALID_ARGUMENT for ctx == NULL. */
KJIT_API kjit_status kjit_last_error_location(const kjit_context *ctx,
                                              const char **file, int *line,
                                              int *col);

/* ----------------------------------------------------------- program ---- */

/* A loaded kernel file: parsed, checked for names and unsupported syntax,
 * lowered to kjit's generic IR.  Functions decorated `@cuda.jit(...)` are
 * compiled; `device=True` ones are device functions (callable from kernels,
 * not kernels themselves); host code (`if __name__ == "__main__":` ...) is
 * skipped.  A program belongs to the context it was loaded into. */
typedef struct kjit_program kjit_program;

/* Reads and loads the kernel file at `path`.  Errors: IO ("cannot open
 * 'x.py': No such file or directory"), SYNTAX, TYPE (unknown names,
 * unsupported Python, bad decorators), INVALID_ARGUMENT, OUT_OF_MEMORY; the
 * diagnostics are in kjit_last_error(ctx).  On success *out is a new program
 * to release with kjit_program_destroy (or with the context). */
KJIT_API kjit_status kjit_program_load_file(kjit_context *ctx, const char *path,
                                            kjit_program **out);

/* As kjit_program_load_file, from NUL-terminated source text.  `name` is
 * the file name used in diagnostics (NULL = "<string>").  Both strings are
 * copied: the caller may free them on return. */
KJIT_API kjit_status kjit_program_load_source(kjit_context *ctx,
                                              const char *name,
                                              const char *text,
                                              kjit_program **out);

/* Releases a program.  NULL is ignored.  Kernel names obtained from it
 * become invalid. */
KJIT_API void kjit_program_destroy(kjit_program *prog);

/* Number of kernels (decorated functions that are not device functions),
 * in source order. */
KJIT_API kjit_status kjit_program_kernel_count(const kjit_program *prog,
                                               int *count);

/* Name of kernel i (0 <= i < count); NOT_FOUND for an index out of range.
 * *name lives as long as the program. */
KJIT_API kjit_status kjit_program_kernel_name(const kjit_program *prog, int i,
                                              const char **name);

/* Type-checks every eager signature (`@cuda.jit("void(float32[:])")` or a
 * list of them) of every decorated function, kernels and device functions
 * alike, reporting all errors found.  Functions without eager signatures
 * (lazy `@cuda.jit`) are not checked: their types are only known at a call.
 * Errors: TYPE (diagnostics in kjit_last_error), SYNTAX (a malformed
 * signature string), INTERNAL. */
KJIT_API kjit_status kjit_program_check(kjit_program *prog);

/* ----------------------------------------------------------- compile ---- */

/* What kjit_program_emit produces. */
typedef enum kjit_emit {
  KJIT_EMIT_KIR = 0,     /* kjit's typed IR, the stable text form */
  KJIT_EMIT_LLVM = 1,    /* LLVM IR after optimization */
  KJIT_EMIT_PTX = 2,     /* PTX assembly (one module) */
  /* Next milestone: KJIT_EMIT_CUBIN (needs the driver / ptxas). */
} kjit_emit;

/* Compile-time options.  Start from kjit_compile_options_init(); each -1
 * means "as the decorator says" (`@cuda.jit(fastmath=True, opt=False,
 * lineinfo=True, max_registers=32)`), any other value overrides the
 * decorator for every function of the compile. */
typedef struct kjit_compile_options {
  const char *arch;      /* "sm_80" (default), "sm_90", "sm_90a": sm_50 ..
                            sm_90a, as LLVM 19's NVPTX backend knows them.
                            NULL = default.  Not copied past the call. */
  int opt_level;         /* -1, or 0..3 */
  int fastmath;          /* -1, 0 or 1 */
  int lineinfo;          /* -1, 0 or 1: .loc line information in the PTX */
  int max_registers;     /* -1, 0 (no limit) or 1..255 registers per thread */
  void *reserved[6];     /* must be zero (kjit_compile_options_init does it);
                            next milestone: debug/bounds checks, target */
} kjit_compile_options;

/* Fills *opts with the defaults (arch "sm_80", everything else -1).  NULL
 * is ignored. */
KJIT_API void kjit_compile_options_init(kjit_compile_options *opts);

/* Compiles and returns one stage's text.
 *   kernel     the kernel's name, or NULL for every kernel that has eager
 *              signatures (all of them go into one module / one text).
 *   signature  "void(float32[::1], int64)" for that kernel, or NULL for
 *              its eager signatures (each one is compiled).  A lazy kernel
 *              (plain `@cuda.jit`) needs one.  With kernel NULL a signature
 *              is accepted only when the program has exactly one kernel.
 *   opts       NULL = defaults (kjit_compile_options_init).
 *   what       KJIT_EMIT_KIR, KJIT_EMIT_LLVM or KJIT_EMIT_PTX.
 * On success *out is malloc'd NUL-terminated text (free with kjit_free) and
 * *len its length without the NUL; warnings are in kjit_last_diagnostics.
 * Errors: NOT_FOUND (no such kernel; the message lists the file's kernels),
 * SYNTAX (malformed signature), TYPE (typing, signature/arity mismatch, a
 * kernel not returning void, no signature for a lazy kernel),
 * INVALID_ARGUMENT (bad arch or option value), CODEGEN, INTERNAL,
 * OUT_OF_MEMORY.  The program is not changed by a failing call and may be
 * compiled again. */
KJIT_API kjit_status kjit_program_emit(kjit_program *prog, const char *kernel,
                                       const char *signature,
                                       const kjit_compile_options *opts,
                                       kjit_emit what, char **out, size_t *len);

/* Next milestone (planned, not declared yet so nothing pretends to work):
 *   kjit_kernel      kjit_program_get_kernel(prog, name, &kernel): a handle
 *                    that caches specializations keyed by argument types.
 *   kjit_array       device / host arrays (dtype, ndim, shape, strides),
 *                    kjit_array_create / _from_host / _to_host / _destroy.
 *   kjit_stream      kjit_stream_create / _synchronize / _destroy.
 *   kjit_launch      kjit_launch(kernel, grid[3], block[3], shared_bytes,
 *                    stream, args, nargs) with kjit_arg (array or scalar);
 *                    KJIT_ERROR_NO_DEVICE where no GPU is usable.
 *   kjit_context_options gains target/device/cache fields from `reserved`. */

#ifdef __cplusplus
}
#endif

#endif /* KJIT_H */
