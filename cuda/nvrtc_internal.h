/* nvrtc.h - CUDA C/C++ -> PTX through NVRTC, loaded with dlopen.
 *
 * libkjit never links NVRTC: it is opened on first use (KJIT_NVRTC, then
 * libnvrtc.so.13/.12/.so, then the CUDA toolkit's lib64), so machines
 * without it still load kjit; compiling a .cu there is an error that says
 * so.  Used by cuda/link.c for `link=[...]` files and by cuda/cuc.c
 * for whole CUDA C programs. */
#ifndef KJIT_RUNTIME_NVRTC_H
#define KJIT_RUNTIME_NVRTC_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

/* Diagnostic codes: common/diag_codes.h (E070..E073). */

typedef struct RtNvrtc {
  void *lib;
  int (*CreateProgram)(void **prog, const char *src, const char *name, int nheaders,
                       const char *const *headers, const char *const *names);
  int (*DestroyProgram)(void **prog);
  int (*CompileProgram)(void *prog, int nopts, const char *const *opts);
  int (*GetPTXSize)(void *prog, size_t *size);
  int (*GetPTX)(void *prog, char *ptx);
  int (*GetProgramLogSize)(void *prog, size_t *size);
  int (*GetProgramLog)(void *prog, char *log);
  const char *(*GetErrorString)(int result);
  int (*Version)(int *major, int *minor);
  int (*AddNameExpression)(void *prog, const char *name);
  int (*GetLoweredName)(void *prog, const char *name, const char **lowered);
  int major, minor;          /* NVRTC's version */
} RtNvrtc;

/* One NVRTC compile: the source, kjit's options and the user's, the name
 * expressions whose lowered names are wanted. */
typedef struct RtNvrtcJob {
  const char *path;          /* the file, as named in messages */
  const char *src;           /* its text */
  int sm;                    /* -arch=compute_<sm> */
  bool rdc;                  /* link= device functions: -rdc=true
                                -default-device; whole kernels: neither */
  const char *const *opts;   /* the user's options (-I, -D, ...), after kjit's */
  int nopts;
  const char *const *names;  /* name expressions (nvrtcAddNameExpression) */
  int nnames;
  const char **lowered;      /* out: nnames lowered names, in the arena */
} RtNvrtcJob;

/* Opens NVRTC.  False with an RT_E_NVRTC_MISSING diagnostic at `at`. */
bool rt_nvrtc_open(RtNvrtc *nv, SrcLoc at, Diags *diags);

/* The CUDA toolkit's include folder ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda),
 * or NULL. */
const char *rt_cuda_include_dir(void);

/* Compiles the CUDA C source `src` (named `path` in messages; its folder is
 * an include path, as is the toolkit's include folder) to relocatable PTX
 * for compute_<sm>.  *ptx is malloc'd.  Errors in NVRTC's log
 * (`path(12): error: ...`) become diagnostics at that line of the file; a
 * Source for it is allocated in `arena`. */
bool rt_nvrtc_compile(RtNvrtc *nv, const char *path, const char *src, int sm, Arena *arena,
                      char **ptx, size_t *len, Diags *diags);

/* The general form: job->lowered filled on success.  Errors of NVRTC's log
 * (`file.cu(12): error: ...` followed by the line and a caret) become
 * diagnostics at that line and column, in the .cu file or in the header
 * named (read from disk to show its line); `hint` goes on each. */
bool rt_nvrtc_run(RtNvrtc *nv, RtNvrtcJob *job, const char *hint, Arena *arena, char **ptx,
                  size_t *len, Diags *diags);

/* The library names tried, for messages ("libnvrtc.so.13, ..."). */
const char *rt_nvrtc_searched(void);

#endif
