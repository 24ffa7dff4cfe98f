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
 *     error[E412]: ...", the source line, a caret, a hint), and
 *     kjit_last_error_location() its source position.  Each call on a
 *     context (or on a program of that context) replaces them; the
 *     accessors themselves (kjit_last_*, kjit_program_kernel_count/name,
 *     kjit_status_name, kjit_version) and the destroy functions do not.
 *   - Strings returned as `const char *` are owned by the library; each
 *     comment says how long they stay valid.  Text returned through
 *     `char **` is malloc'd for the caller, who releases it with kjit_free().
 *   - The library never exits, aborts or prints on bad user input.
 *   - Host memory: running out of it is fatal, as in LLVM: kjit prints one
 *     line ("kjit: out of memory") and aborts the process.  So
 *     KJIT_ERROR_OUT_OF_MEMORY is no general outcome: it is returned only
 *     by the functions whose comment lists it, for device memory the CUDA
 *     driver cannot give or for an array of a requested size (a shape, a
 *     count, a .npy header) that cannot be allocated.
 *
 * Threads: any number of threads may call into one context at once.  Each
 * call that takes a context or something made through it (a program, a
 * kernel handle, an array) holds the context's lock for its duration, so
 * the calls of one context run one at a time, in no set order: compiles
 * and launches from several threads are correct but do not overlap (a
 * launch still spreads its blocks over the CPU target's own thread pool);
 * for parallel compiles, give each thread its own context.  Distinct
 * contexts share nothing.  Handles may be shared between threads: several
 * threads may launch the same kernel handle, ask one program for its
 * kernels, or pass the same array as an input.  What stays the caller's
 * job: a handle must not be destroyed (nor its context) while another
 * thread still uses it or may still use it, and launches from different
 * threads writing one array happen in whichever order the threads reach
 * the lock.  kjit_last_error,
 * kjit_last_diagnostics and kjit_last_error_location answer for the
 * calling thread: they describe that thread's most recent call on the
 * context, and their text stays valid until that thread's next call on it
 * (calls of other threads change nothing there).  kjit_last_timing
 * describes the context's most recent launch, by whichever thread.  The
 * memory *behind* an array (kjit_array_data) is plain memory: any thread
 * may read or write it while no kjit_launch that uses the array is
 * running.  Functions that take no handle (kjit_status_name, kjit_version,
 * kjit_free, kjit_dtype_name, kjit_dtype_size, kjit_dtype_from_name, kjit_arg_*,
 * kjit_*_options_init, kjit_launch_config_init, kjit_context_create,
 * kjit_info, kjit_device_count, kjit_device_get_info) may be called from
 * any thread.  Several GPUs: a context per device (see "devices" below).  tests/stress/embed_threads.c
 * exercises this contract with 8 threads on one context.
 *
 * Quick start (see docs/api.md for a complete program):
 *
 *   kjit_context *ctx;  kjit_program *prog;  char *ptx;  size_t n;
 *   kjit_context_create(NULL, &ctx);
 *   if (kjit_program_load_file(ctx, "vector_add.py", &prog) != KJIT_OK)
 *     fputs(kjit_last_error(ctx), stderr);
 *   kjit_program_emit(prog, "add_kernel", NULL, NULL, KJIT_EMIT_PTX, &ptx, &n);
 *   ...  kjit_free(ptx);  kjit_program_destroy(prog);  kjit_context_destroy(ctx);
 *
 * Running a kernel (examples/vector_add.c is the whole program):
 *
 *   kjit_kernel *k;  kjit_array *x, *y, *out;  kjit_launch_config cfg;
 *   kjit_program_kernel(prog, "add_kernel", &k);
 *   kjit_array_wrap(ctx, KJIT_FLOAT32, 1, &n, NULL, my_x, &x);  (no copy)
 *   ...
 *   kjit_launch_config_init(&cfg);  cfg.grid[0] = 4096;  cfg.block[0] = 256;
 *   kjit_arg args[] = {kjit_arg_array(x), kjit_arg_array(y), kjit_arg_array(out)};
 *   kjit_launch(k, &cfg, args, 3);
 */
#ifndef KJIT_H
#define KJIT_H

#include <stddef.h>
#include <stdint.h>

#include "kjit_dlpack.h"

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
                                      (KJIT_TARGET_CUDA), or a driver call
                                      failed */
  KJIT_ERROR_INTERNAL = 8,         /* a bug in kjit; the message says where */
  KJIT_ERROR_OUT_OF_MEMORY = 9,   /* device memory exhausted, or an array
                                      of the requested size cannot be
                                      allocated (see the conventions) */
  KJIT_ERROR_KERNEL_FAULT = 10,    /* a launched kernel faulted, on either
                                      target: an illegal address, a trap, or
                                      with debug=True an index out of bounds
                                      or a failing assert (E064 on the GPU,
                                      E498 on the CPU); the context, its
                                      programs and arrays stay usable (a GPU
                                      fault resets the device: arrays made
                                      on it before are invalid) */
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

/* Where kernels launched through a context run. */
typedef enum kjit_target {
  KJIT_TARGET_AUTO = 0,  /* $KJIT_TARGET (auto, cpu or cuda) when set; else
                            the GPU when one is usable, else the CPU (with a
                            note in kjit_last_diagnostics unless
                            KJIT_TARGET=auto asked for it) */
  KJIT_TARGET_CPU = 1,   /* the host CPU through LLVM's ORC JIT, with CUDA's
                            execution model (blocks on a thread pool) */
  KJIT_TARGET_CUDA = 2,  /* an NVIDIA GPU through the driver API (loaded
                            with dlopen); without a usable one, resolving it
                            fails with KJIT_ERROR_NO_DEVICE (see
                            kjit_context_target) */
} kjit_target;

/* Options for kjit_context_create.  Always start from
 * kjit_context_options_init(), then change fields: fields added by later
 * versions take their defaults from it. */
typedef struct kjit_context_options {
  int max_errors;        /* diagnostics recorded per call before the rest are
                            only counted; 0 = default (100) */
  kjit_target target;    /* default KJIT_TARGET_AUTO */
  int debug;             /* 0 (default) or 1: every kernel compiled for a
                            launch through this context checks its array
                            indices and asserts, as with debug=True (an
                            index out of bounds or a failing assert fails
                            the launch: see kjit_launch) */
  int device;            /* the CUDA device (ordinal, 0-based, as
                            kjit_device_count numbers them) the context's
                            arrays and launches are bound to, for its whole
                            life; KJIT_DEVICE_DEFAULT (-1, what
                            kjit_context_options_init sets) = the
                            KJIT_DEVICE environment variable, else 0.  Not
                            probed at create: see kjit_context_target. */
  void *cuda_context;    /* a CUcontext to run in (the caller's: kjit never
                            resets or destroys it, and the caller keeps it
                            alive until kjit_context_destroy); NULL: as
                            cuda_context_mode says.  Its device is the
                            kjit context's (device must then be
                            KJIT_DEVICE_DEFAULT or that device). */
  int cuda_context_mode; /* kjit_cuda_context_mode, when cuda_context is
                            NULL; default KJIT_CUDA_CONTEXT_PRIMARY */
  int fault_policy;      /* kjit_fault_policy; default KJIT_FAULT_REPORT */
  int lineinfo;          /* 0 (default) or 1: every kernel compiled for a
                            launch through this context carries source line
                            information, as with lineinfo=True (NVIDIA's
                            profilers and compute-sanitizer then name the
                            .py file and line) */
  int reserved32;        /* must be zero.  lineinfo and this took
                            reserved[0]: the struct's size is unchanged */
  /* Next milestone (not implemented; keep zero): the disk cache directory
   * / enable flag and a log callback take their place here. */
  void *reserved[4];     /* must be zero (kjit_context_options_init does it) */
} kjit_context_options;

/* Which CUDA context a kjit context runs its device work in (docs/api.md
 * "Embedding in a CUDA program"). */
typedef enum kjit_cuda_context_mode {
  KJIT_CUDA_CONTEXT_PRIMARY = 0, /* the device's primary context: the one
                                    the CUDA runtime (cudaMalloc, <<<>>>)
                                    uses, so memory and streams are shared
                                    with it */
  KJIT_CUDA_CONTEXT_CURRENT = 1, /* the context current on the thread that
                                    first opens the device (the first
                                    kjit_context_target, launch or device
                                    array): e.g. one made with cuCtxCreate;
                                    treated as the caller's, like
                                    cuda_context */
  KJIT_CUDA_CONTEXT_OWN = 2,     /* a context of kjit's own (cuCtxCreate),
                                    destroyed by kjit_context_destroy: its
                                    faults cannot reach the primary
                                    context's allocations */
} kjit_cuda_context_mode;

/* What kjit does after a kernel faults on the GPU (illegal address, trap,
 * a failed debug check).  CUDA makes such a fault sticky: the context it
 * happened in is unusable for everyone until it is reset or destroyed. */
typedef enum kjit_fault_policy {
  KJIT_FAULT_REPORT = 0, /* report it (KERNEL_FAULT, naming the kernel) and
                            leave the context exactly as it is: kjit resets
                            nothing, so memory, streams and modules other
                            code made in that context are never freed by
                            kjit; every later kjit call needing the device
                            fails with "the CUDA context is unusable" */
  KJIT_FAULT_RESET = 1,  /* then reset and reload: the primary context is
                            reset (cuDevicePrimaryCtxReset: destroys every
                            allocation in it, the CUDA runtime's too) or
                            kjit's own context is destroyed and made anew;
                            device arrays made before become invalid.  Not
                            allowed with a caller's context (cuda_context,
                            KJIT_CUDA_CONTEXT_CURRENT). */
} kjit_fault_policy;

/* kjit_context_options.device: take $KJIT_DEVICE, else device 0. */
#define KJIT_DEVICE_DEFAULT (-1)

/* Fills *opts with the defaults.  NULL is ignored. */
KJIT_API void kjit_context_options_init(kjit_context_options *opts);

/* Creates a context.  opts may be NULL (= defaults); it is copied, so the
 * caller may free it on return.  On success *out owns a new context to be
 * released with kjit_context_destroy.  Errors: INVALID_ARGUMENT (out NULL,
 * non-zero reserved fields, a target outside kjit_target, a device below
 * KJIT_DEVICE_DEFAULT).
 * The target is not probed here (creating a context stays cheap and works
 * without a GPU): see kjit_context_target.  Thread-safe. */
KJIT_API kjit_status kjit_context_create(const kjit_context_options *opts,
                                         kjit_context **out);

/* Destroys a context and every program, kernel handle and array still
 * alive in it (their handles become invalid; memory given to
 * kjit_array_wrap stays the caller's).  NULL is ignored.  Strings obtained
 * from the context (kjit_last_error, kernel names of its programs) become
 * invalid.  No other thread may be using the context or its handles. */
KJIT_API void kjit_context_destroy(kjit_context *ctx);

/* Sets the folders searched for the Python modules a kernel file imports
 * (`import util`, `from pkg.rng import uniform`), colon-separated like
 * PYTHONPATH ("lib:/opt/kernels"); NULL or "" clears it.  A load searches
 * the kernel file's own folder first (kjit_program_load_source: the current
 * folder), then these folders, then those of the KJIT_PATH environment
 * variable.  The string is copied; programs already loaded keep what they
 * found.  Errors: INVALID_ARGUMENT (ctx NULL).  Thread-safe
 * (takes the context's lock). */
KJIT_API kjit_status kjit_context_set_search_path(kjit_context *ctx, const char *dirs);

/* The target launches on ctx run on: KJIT_TARGET_CPU or KJIT_TARGET_CUDA,
 * never AUTO.  The first call resolves the context's option and remembers
 * the answer: CUDA opens the driver and the context's device; AUTO becomes
 * CUDA when that works and CPU otherwise, leaving "kjit: note: no CUDA
 * device; running on the cpu target (the reason)" in
 * kjit_last_diagnostics(ctx) (none when KJIT_TARGET=auto; KJIT_TARGET=cpu
 * or cuda stands for that target, any other value is INVALID_ARGUMENT).  A device number that does not exist on a
 * machine that has GPUs is an error for AUTO too (NO_DEVICE: "CUDA device
 * 3 does not exist: this machine has 2"), as is a KJIT_DEVICE that is not
 * a number; AUTO falls back to the CPU only where no GPU is usable.
 * kjit_launch resolves it the same way, so calling this is only needed to
 * learn the target or to fail early.  Opening the device starts the driver
 * and reads the device; its primary context is then made on a thread of
 * kjit's own while the caller goes on (a first launch compiles meanwhile),
 * and a failure there is reported by the first call that needs the context
 * (NO_DEVICE, naming the driver call).  Errors: NO_DEVICE for
 * KJIT_TARGET_CUDA without a usable GPU (the message says why, with a hint
 * to use the cpu target), OUT_OF_MEMORY (the device has no memory left for
 * its context), INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_context_target(kjit_context *ctx, kjit_target *out);

/* The CUDA device ordinal ctx is bound to (its device option, or
 * KJIT_DEVICE, else 0), without opening anything: whether that device
 * exists is known from kjit_context_target.  Errors: INVALID_ARGUMENT
 * (NULLs; a KJIT_DEVICE that is not a number, with the message).  Takes
 * the context's lock. */
KJIT_API kjit_status kjit_context_device(kjit_context *ctx, int *ordinal);

/* ----------------------------------------------------------- devices ---- */

/* Several GPUs from one process: one context per device.  Create a context
 * with options.device = N for each GPU N (kjit_device_count says how many);
 * its arrays live in device N's memory and its launches run there (host
 * arrays are copied to and from device N).  The contexts share nothing but
 * the disk cache, so each loads its own program: the file is parsed again
 * (cheap) and each kernel's specializations are compiled, loaded and kept
 * per context, hence per device; a device of the same architecture finds
 * the PTX in the disk cache, so only the first context of a process (or of
 * a machine, across processes) runs LLVM for a kernel (each context still
 * turns the PTX into a cubin loaded on its device).
 * Two patterns are supported and tested (examples/multigpu/):
 *   - a host thread per device, each using only its own context: the
 *     contexts' locks are distinct, so compiles, copies and launches of
 *     different devices run in parallel;
 *   - one thread driving every device in turn: each call makes its
 *     context's device current on the calling thread (a check of the
 *     current CUDA context, as every call already does), and launches of
 *     device arrays are asynchronous, so the devices work at once; wait on
 *     each with kjit_synchronize.
 * An array passed to a launch must belong to the launch's context ("the
 * array belongs to another context"): data moves between devices through
 * the host (kjit_array_copy to a host array, then to the other device). */

/* One CUDA device as the driver describes it. */
typedef struct kjit_device_info {
  int ordinal;             /* 0-based, the value for options.device */
  char name[256];          /* "NVIDIA H100 80GB HBM3" */
  int cc_major, cc_minor;  /* compute capability (9, 0) */
  uint64_t total_memory;   /* bytes of device memory */
  int multiprocessors;     /* SMs */
  int max_threads_per_block;
  int max_shared_per_block;   /* bytes, without opt-in */
  int max_shared_optin;       /* bytes, with opt-in */
  int memory_clock_khz;       /* the driver's memory clock; 0 when it gives none */
  int memory_bus_width;       /* bits; 0 when the driver gives none */
  int peak_bandwidth_mbs;     /* peak memory bandwidth, MB/s: 2 x clock x
                                 bus width, else kjit's table of published
                                 figures by name; 0 unknown.  These four
                                 took reserved[0..3]: the size is unchanged */
  int peak_bandwidth_source;  /* 1 clock x bus width, 2 the table, 0 none */
  int reserved[4];            /* zero */
} kjit_device_info;

/* The number of CUDA devices of this machine (those CUDA_VISIBLE_DEVICES
 * leaves visible).  Loads the driver with dlopen on each call; creates no
 * CUDA context.  A machine without a driver or without a GPU gives KJIT_OK
 * and *count = 0 (kjit_info says why).  Errors: INVALID_ARGUMENT (count
 * NULL).  Thread-safe. */
KJIT_API kjit_status kjit_device_count(int *count);

/* Describes device `ordinal` into *out (no CUDA context is created).
 * Errors: INVALID_ARGUMENT (out NULL, ordinal < 0), NO_DEVICE (no driver,
 * no GPU, or ordinal >= kjit_device_count).  Thread-safe. */
KJIT_API kjit_status kjit_device_get_info(int ordinal, kjit_device_info *out);

/* The rendered diagnostics of the most recent call on ctx (or on one of its
 * programs) if that call failed, "" if it succeeded or no call was made.
 * Rendering: "file:line:col: error[E412]: message" (E412: the diagnostic's
 * stable code, docs/diagnostics.md; "warning[E...]" for warnings, "note"
 * for notes), the source line, a caret line "^~~~" under the culprit, then
 * "hint: ..." where one helps; problems without a source position read
 * "kjit: error[E490]: message".  Never NULL (""
 * for ctx == NULL).  Valid until the calling thread's next call on ctx
 * (each thread has its own: see "Threads" above). */
KJIT_API const char *kjit_last_error(const kjit_context *ctx);

/* Every diagnostic of the most recent call, errors and warnings/notes
 * alike: after a successful call this holds its warnings (or ""), after a
 * failing one the same text as kjit_last_error.  Never NULL; valid until
 * the calling thread's next call on ctx. */
KJIT_API const char *kjit_last_diagnostics(const kjit_context *ctx);

/* Source position of the first error of the most recent failing call.
 * Each out-parameter may be NULL.  *file is the path as the user gave it
 * (or the name given to kjit_program_load_source, or "--sig" for a
 * signature string), valid until the calling thread's next call on ctx;
 * *line and *col are 1-based (col in bytes).  Returns NOT_FOUND (outputs set to NULL/0) when
 * the last call succeeded or its error has no source position (e.g. a
 * missing file); INVALID_ARGUMENT for ctx == NULL. */
KJIT_API kjit_status kjit_last_error_location(const kjit_context *ctx,
                                              const char **file, int *line,
                                              int *col);

/* Makes `message` (printf-style) the error of the calling thread's most
 * recent call on ctx, as a failing call of the library leaves one: a
 * library written over this API (include/kjitaux.h) reports its own errors
 * where the caller reads kjit_last_error ("kjit: error: MESSAGE\n").
 * Returns `status`; with KJIT_OK the last error is cleared and the message
 * ignored.  KJIT_ERROR_INVALID_ARGUMENT (nothing set) for NULL ctx or fmt. */
KJIT_API kjit_status kjit_set_error(kjit_context *ctx, kjit_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ----------------------------------------------------------- program ---- */

/* A loaded kernel file: parsed, checked for names and unsupported syntax,
 * lowered to kjit's generic IR.  Functions decorated `@cuda.jit(...)` are
 * compiled; `device=True` ones are device functions (callable from kernels,
 * not kernels themselves); host code (`if __name__ == "__main__":` ...) is
 * skipped.  A program belongs to the context it was loaded into. */
typedef struct kjit_program kjit_program;

/* Reads and loads the kernel file at `path`.  Errors: IO ("cannot open
 * 'x.py': No such file or directory"), SYNTAX, TYPE (bad decorators and
 * options), INVALID_ARGUMENT; the diagnostics are in
 * kjit_last_error(ctx).  Errors inside a function's body (unknown names,
 * unsupported Python) are reported, as in Numba, when that function is
 * compiled (kjit_program_emit, a launch, kjit_program_check), so one broken
 * kernel does not stop the file's other kernels.  On success *out is a new program
 * to release with kjit_program_destroy (or with the context).  A path
 * ending in .cu or .cuh is loaded as CUDA C, as kjit_program_load_cuda_file
 * with default options (see "CUDA C programs" below). */
KJIT_API kjit_status kjit_program_load_file(kjit_context *ctx, const char *path,
                                            kjit_program **out);

/* As kjit_program_load_file, from NUL-terminated source text.  `name` is
 * the file name used in diagnostics (NULL = "<string>").  Both strings are
 * copied: the caller may free them on return. */
KJIT_API kjit_status kjit_program_load_source(kjit_context *ctx,
                                              const char *name,
                                              const char *text,
                                              kjit_program **out);

/* As kjit_program_load_source, from everything that can be read from file
 * descriptor `fd` (a pipe, a terminal, a file; standard input is 0) up to
 * its end; fd stays open.  At most KJIT_MAX_SOURCE_BYTES are read (default
 * 16 MiB): a longer input is IO ("'<stdin>' is larger than the source size
 * limit of N bytes").  `name` is the file name used in diagnostics (NULL =
 * "<stdin>").  Python source only.  Errors as kjit_program_load_source, and
 * IO ("cannot read '<stdin>': ..."). */
KJIT_API kjit_status kjit_program_load_fd(kjit_context *ctx, const char *name, int fd,
                                          kjit_program **out);

/* ------------------------------------------------- CUDA C programs --- */

/* A program may also be CUDA C: `__global__` kernels in a .cu file or a
 * string (as PyCUDA's SourceModule and CuPy's RawKernel take them),
 * compiled by NVRTC (loaded with dlopen: libnvrtc.so.13/.12/.so, then the
 * CUDA toolkit's lib64, or the library KJIT_NVRTC names) and launched with
 * the calls below, as Python kernels are.  docs/cuda.md, "CUDA C kernels",
 * says it all; in short:
 *   - kernels are named by NVRTC name expression: "vector_add" (extern "C"
 *     or not), "scale<float>" (an instantiation of a template),
 *     "static_cast<void(*)(float*, int)>(f)" (one of several overloads);
 *     kjit_program_kernel_count/_name list the non-template kernels;
 *   - each kernel's C parameter list is read (pointers to and values of
 *     bool, char, short, int, long, long long, their unsigned forms,
 *     int8_t .. uint64_t, size_t, ptrdiff_t, __half, float, double; const,
 *     volatile and __restrict__ allowed); a kernel with a parameter of
 *     another type is refused by name when it is looked up;
 *   - kjit_launch checks each argument against its parameter before
 *     anything runs: an array for a pointer (C-contiguous, of the
 *     pointee's dtype; void * takes any), a number for a value (converted
 *     as C converts it: 2.7 to an int parameter is 2);
 *   - only the cuda target runs them: on the cpu target kjit_launch fails
 *     with KJIT_ERROR_INVALID_ARGUMENT ("the cpu target cannot run CUDA C
 *     kernels");
 *   - kjit_program_emit gives KJIT_EMIT_PTX (NVRTC's, for opts->arch) or
 *     KJIT_EMIT_CUBIN (nvJitLink) with signature NULL and every other
 *     kjit_compile_options field at its default (-1), and
 *     kjit_program_check compiles the whole file: both work without a GPU;
 *   - compiles are kept in the disk cache, keyed by the source, the text of
 *     the headers it includes with quotes or from -I folders, the options,
 *     the architecture and NVRTC's version. */

/* Options of a CUDA C program.  Start from kjit_cuda_options_init. */
typedef struct kjit_cuda_options {
  const char *const *nvrtc_options; /* count NVRTC options, each one string:
                            "-I<dir>" / "--include-path=<dir>",
                            "-D<name>[=<value>]" / "--define-macro=...",
                            "-U<name>", "--use_fast_math" (or
                            "-use_fast_math"), "-std=c++14|17|20" (default
                            c++17), "-lineinfo", "--fmad=true|false",
                            "-ftz=", "-prec-div=", "-prec-sqrt=".  Others
                            (-arch above all: kjit picks it) are refused with
                            KJIT_ERROR_INVALID_ARGUMENT.  Copied by the load:
                            the caller may free them on return.  NULL when
                            count is 0. */
  int count;
  void *reserved[6];     /* must be zero (kjit_cuda_options_init does it) */
} kjit_cuda_options;

/* Fills *opts with the defaults (no options).  NULL is ignored. */
KJIT_API void kjit_cuda_options_init(kjit_cuda_options *opts);

/* Reads the CUDA C file at `path` and loads it as a program: its
 * __global__ functions are found and listed; nothing is compiled yet
 * (kjit_program_check compiles it).  kjit_program_load_file does the same
 * with default options for a path ending in .cu or .cuh.  The file's folder
 * is an include path.  opts may be NULL (= defaults).  On success *out is a
 * new program to release with kjit_program_destroy (or with the context).
 * Errors: IO, INVALID_ARGUMENT (an option refused, NULLs). */
KJIT_API kjit_status kjit_program_load_cuda_file(kjit_context *ctx, const char *path,
                                                 const kjit_cuda_options *opts,
                                                 kjit_program **out);

/* As kjit_program_load_cuda_file, from NUL-terminated CUDA C text; `name`
 * names it in diagnostics (NULL = "<string>.cu") and its folder, if it has
 * one, is an include path.  Both strings are copied. */
KJIT_API kjit_status kjit_program_load_cuda_source(kjit_context *ctx, const char *name,
                                                   const char *text,
                                                   const kjit_cuda_options *opts,
                                                   kjit_program **out);

/* Releases a program.  NULL is ignored.  Kernel names obtained from it
 * become invalid.  The program and its kernel and function handles are
 * kept poisoned for a while (the 16 most recently destroyed per context):
 * a call with one of them returns INVALID_ARGUMENT, and destroying the
 * program again does nothing; older stale handles are undefined. */
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
 * (lazy `@cuda.jit`) are checked as far as no types are needed (names,
 * attributes, call arity: when the program is loaded) but not typed: their
 * types are only known at a call; kjit_program_emit with a signature
 * (KJIT_EMIT_KIR) types one.
 * Errors: TYPE (diagnostics in kjit_last_error), SYNTAX (a malformed
 * signature string), INTERNAL. */
KJIT_API kjit_status kjit_program_check(kjit_program *prog);

/* ----------------------------------------------------------- compile ---- */

/* What kjit_program_emit produces. */
typedef enum kjit_emit {
  KJIT_EMIT_KIR = 0,     /* kjit's typed IR, the stable text form */
  KJIT_EMIT_LLVM = 1,    /* LLVM IR after optimization */
  KJIT_EMIT_PTX = 2,     /* PTX assembly (one module) */
  KJIT_EMIT_CUBIN = 3,   /* the PTX linked with the kernels' link= CUDA C
                            files (NVRTC) by nvJitLink for `arch`: an ELF
                            cubin (binary: *len bytes, not NUL-terminated).
                            No GPU needed; NVRTC and nvJitLink are. */
} kjit_emit;

/* Compile-time options.  Start from kjit_compile_options_init(); each -1
 * means "as the decorator says" (`@cuda.jit(fastmath=True, opt=False,
 * lineinfo=True, max_registers=32)`), any other value overrides the
 * decorator for every function of the compile. */
typedef struct kjit_compile_options {
  const char *arch;      /* "sm_80", "sm_90", "sm_90a": sm_50 .. sm_90a, as
                            LLVM 19's NVPTX backend knows them.  NULL (the
                            default) = the present GPU's architecture (the
                            context's device, probed once per context through
                            the driver, without creating a CUDA context), else
                            sm_80.
                            Not copied past the call. */
  int opt_level;         /* -1, or 0..3 */
  int fastmath;          /* -1, 0 or 1 */
  int lineinfo;          /* -1, 0 or 1: .loc line information in the PTX */
  int max_registers;     /* -1, 0 (no limit) or 1..255 registers per thread */
  int debug;             /* -1, 0 or 1: as debug=True, every array index is
                            checked against its extent and every assert is
                            checked (docs/language.md, "Bounds checking",
                            "Assertions"); 0 also turns boundscheck off */
  int fits32;            /* -1/0, or 1: compile the variant a launch picks when
                            every array argument's extents and byte span are
                            below 2^31 (32-bit offsets; docs/internals.md) */
  int grid32;            /* -1/0, or 1: compile the variant a launch picks when
                            gridDim * blockDim is below 2^31 in every
                            dimension (cuda.grid() indices and the comparisons
                            they meet in 32 bits; docs/internals.md) */
  int reserved32;        /* must be zero.  grid32 and this took reserved[0]:
                            the struct's size is unchanged, and a program
                            built before them passes 0 (the default) */
  const char *file_prefix_map; /* NULL, or "OLD=NEW": a source path recorded
                            in the line information (PTX .file) that starts
                            with the directory OLD starts with NEW instead
                            (NEW empty: the rest of the path, relative), as
                            gcc's -fdebug-prefix-map; so artifacts do not
                            carry the build machine's paths.  Part of the
                            disk-cache key.  Not copied past the call.
                            Took reserved[0]: the size is unchanged */
  void *reserved[3];     /* must be zero (kjit_compile_options_init does it);
                            next milestone: target */
} kjit_compile_options;

/* Fills *opts with the defaults (arch NULL: the present GPU's, else sm_80;
 * everything else -1).  NULL
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
 * INVALID_ARGUMENT (bad arch or option value), CODEGEN, INTERNAL.  The
 * program is not changed by a failing call and may be
 * compiled again. */
KJIT_API kjit_status kjit_program_emit(kjit_program *prog, const char *kernel,
                                       const char *signature,
                                       const kjit_compile_options *opts,
                                       kjit_emit what, char **out, size_t *len);

/* ------------------------------------------------------- ahead of time -- */

/* One kernel and signature of an ahead-of-time library (`kjit aot`). */
typedef struct kjit_aot_unit {
  const char *kernel;     /* a kernel's name (a @cuda.jit function), a
                             @vectorize or a @cuda.reduce function's; NULL:
                             the program's only kernel */
  const char *signature;  /* "void(float32[::1], int64)", or NULL for each
                             of the kernel's eager signatures; a @vectorize
                             function's scalar one, a @cuda.reduce
                             function's array type ("float32[::1]") */
} kjit_aot_unit;

/* Which code an ahead-of-time library carries (bits). */
enum {
  KJIT_AOT_CUDA = 1,      /* cubins per architecture, the highest one's PTX */
  KJIT_AOT_CPU = 2,       /* host assembly for this machine's triple, run on
                             threads by the generated C when no GPU is there */
};

typedef struct kjit_aot_options {
  const char *name;       /* NAME: a C identifier, the prefix of every
                             generated symbol (NAME_add_kernel, NAME_status)
                             and the files' names.  Required. */
  const kjit_aot_unit *units; /* what to compile, in this order; NULL with */
  int nunits;             /* nunits 0: every kernel with eager signatures */
  const char *const *archs; /* "sm_80", ... (sm_50 .. sm_90a); NULL with */
  int narchs;             /* narchs 0: sm_80 */
  int targets;            /* KJIT_AOT_CUDA | KJIT_AOT_CPU; 0 = both */
  const char *source_name;/* the kernel file's name as the generated files
                             show it, in their headers and in the code's
                             debug=True messages (a basename, so output does
                             not depend on where the file lies); NULL: the
                             program's path */
  void *reserved[4];      /* must be zero */
} kjit_aot_options;

/* Fills *opts with the defaults (everything zero/NULL).  NULL is ignored. */
KJIT_API void kjit_aot_options_init(kjit_aot_options *opts);

/* Generates an ahead-of-time library of a Python program's kernels: a C
 * header (*header) and a C source (*source), both malloc'd NUL-terminated
 * text (free with kjit_free), which compile as C11 and as C++ with no
 * libkjit, no LLVM and no CUDA in the link (the driver is found with dlopen
 * when the library first runs; docs/aot.md describes the generated API and
 * ABI).  Each unit gets a typed launcher.  For the CUDA target every unit is
 * compiled for every architecture in four variants (32-bit array offsets
 * and grid indices, as a launch picks them: docs/internals.md), linked to
 * cubins by nvJitLink; the highest architecture's PTX rides along for newer
 * GPUs.  For the CPU target the generic variant is compiled to host
 * assembly (a portable CPU of this machine's triple).  The output is a
 * function of the program, the options and kjit's version only: two calls
 * give the same bytes.  Errors: NOT_FOUND (no such kernel), SYNTAX / TYPE (a
 * signature, typing), INVALID_ARGUMENT (name, architecture, targets),
 * CODEGEN (a kernel the generated runtime cannot run, with the reason, e.g.
 * warp intrinsics on the CPU; no nvJitLink for the cubins), INTERNAL.
 * Not for CUDA C programs (INVALID_ARGUMENT). */
KJIT_API kjit_status kjit_program_aot(kjit_program *prog, const kjit_aot_options *opts,
                                      char **header, size_t *header_len, char **source,
                                      size_t *source_len);

/* Compiles device functions (@cuda.jit(device=True)) alone for CUDA C
 * programs (`kjit aot --emit ptx`): *ptx gets one PTX module for one
 * architecture (opts->archs[0], default sm_80) with a `.visible .func` of
 * each function's Python name and the C ABI (docs/cli.md, "Device functions
 * alone"); *header gets their `extern "C" __device__` declarations.  Both
 * malloc'd, NUL-terminated (free with kjit_free).  opts->units name the
 * functions (a signature each, or NULL for the eager ones); opts->name is
 * the header's name; targets must be 0 or KJIT_AOT_CUDA.  Errors:
 * NOT_FOUND (no such function), INVALID_ARGUMENT (not a device function,
 * no units, several architectures, a function with two signatures: C has
 * no overloads), SYNTAX / TYPE (a signature), CODEGEN (a type with no C
 * form: arrays, tuples, float16, complex). */
KJIT_API kjit_status kjit_program_aot_device(kjit_program *prog, const kjit_aot_options *opts,
                                             char **header, size_t *header_len, char **ptx,
                                             size_t *ptx_len);

/* What one compiled kernel uses of the GPU, as ptxas reports it for the
 * cubin nvJitLink links (what Numba's get_regs_per_thread() and
 * get_shared_mem_per_block() give).  Computed without a GPU. */
typedef struct kjit_resources {
  char name[256];              /* the PTX entry ("add_kernel__a1Cf32_a1Cf32") */
  char arch[16];               /* "sm_90" */
  int registers;               /* per thread */
  int barriers;                /* named barriers used */
  int64_t stack_bytes;         /* local memory per thread: the stack frame */
  int64_t spill_store_bytes;   /* register spills written to local memory */
  int64_t spill_load_bytes;    /* and read back */
  int64_t static_shared_bytes; /* cuda.shared.array of constant shape */
  int64_t const_bytes;         /* constant bank 0: the parameters and more */
  int max_threads_per_block;   /* the largest block the registers allow
                                  (at most 1024), as the driver's
                                  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
  int64_t ptx_bytes;           /* the whole PTX module's size */
  int64_t sass_bytes;          /* the kernel's machine code (.text.NAME) */
  int64_t cubin_bytes;         /* the whole linked cubin's size */
  int reserved[8];             /* zero */
} kjit_resources;

/* Compiles as kjit_program_emit(KJIT_EMIT_CUBIN) does (same kernel,
 * signature and opts) and describes each kernel of the cubin: out[0 ..
 * min(*count, max)-1] are filled, *count is the number of kernels compiled
 * (a @cuda.reduce compiles two).  No GPU needed; nvJitLink is.  Errors: as
 * kjit_program_emit, INVALID_ARGUMENT (out NULL with max > 0, count NULL,
 * a CUDA C program), CODEGEN (nvJitLink missing, or it gives no resource
 * report: E062). */
KJIT_API kjit_status kjit_program_resources(kjit_program *prog, const char *kernel,
                                            const char *signature,
                                            const kjit_compile_options *opts,
                                            kjit_resources *out, int max, int *count);

/* How many blocks of a kernel one SM holds at once (kjit_occupancy_*). */
typedef struct kjit_occupancy {
  int active_blocks_per_sm;
  int active_warps_per_sm;
  int max_warps_per_sm;        /* the architecture's */
  double occupancy;            /* active / max warps, 0..1 */
  const char *limited_by;      /* static text: "warps", "blocks", "registers",
                                  "shared memory", "barriers", "block size" */
  int reserved[8];             /* zero */
} kjit_occupancy;

/* The occupancy calculator, on the CPU: resident blocks per SM of a kernel
 * using `r` (from kjit_program_resources; registers, static_shared_bytes,
 * barriers, max_threads_per_block are read) launched with `block` threads
 * (x*y*z) and `dynamic_shared` bytes, on `arch` ("sm_90"; NULL: r->arch),
 * as the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor computes it
 * with the default carveout.  Architectures sm_70 .. sm_90 (docs/api.md,
 * "Occupancy", says where the limits come from).  A block that cannot run
 * (too many threads, registers or shared bytes) gives 0 blocks and
 * limited_by saying why.  Errors: INVALID_ARGUMENT (NULLs, an architecture
 * the table lacks).  Thread-safe; needs no context. */
KJIT_API kjit_status kjit_occupancy_compute(const kjit_resources *r, const char *arch, int block,
                                            size_t dynamic_shared, kjit_occupancy *out);

/* The block size (a multiple of 32, at most r->max_threads_per_block) with
 * the most resident warps per SM for `dynamic_shared` bytes, the largest
 * such block on a tie (as cuOccupancyMaxPotentialBlockSize); *block and,
 * if out is not NULL, its occupancy.  *block is 0 when no block fits.
 * Errors as kjit_occupancy_compute. */
KJIT_API kjit_status kjit_occupancy_best_block(const kjit_resources *r, const char *arch,
                                               size_t dynamic_shared, int *block,
                                               kjit_occupancy *out);

/* ------------------------------------------------------------ dtypes ---- */

/* Element types of arrays and typed scalars (NumPy's). */
typedef enum kjit_dtype {
  KJIT_NONE = -2,          /* kjit_value of a function returning nothing */
  KJIT_DTYPE_INVALID = -1, /* returned by accessors for a bad handle */
  KJIT_BOOL = 0,
  KJIT_INT8, KJIT_INT16, KJIT_INT32, KJIT_INT64,
  KJIT_UINT8, KJIT_UINT16, KJIT_UINT32, KJIT_UINT64,
  KJIT_FLOAT16, KJIT_FLOAT32, KJIT_FLOAT64,
  KJIT_COMPLEX64, KJIT_COMPLEX128,
  KJIT_RECORD,             /* a structured dtype (NumPy's record): arrays
                              only, made by kjit_array_create_record or
                              read from a .npy file; kjit_array_descr says
                              which fields it has */
} kjit_dtype;

/* NumPy's name ("float32", "bool", "complex128"; "none" for KJIT_NONE,
 * "record" for KJIT_RECORD);
 * NULL for a value outside the enum.  Static storage; thread-safe. */
KJIT_API const char *kjit_dtype_name(kjit_dtype dtype);

/* Bytes per element (bool 1, float16 2, complex128 16); 0 outside the
 * enum and for KJIT_RECORD (see kjit_array_itemsize).  Thread-safe. */
KJIT_API size_t kjit_dtype_size(kjit_dtype dtype);

/* The dtype a name spells: NumPy's names and short forms ("float32", "f32",
 * "f4", "float", "int64", "i64", "int", "uint8", "u1", "bool", "b1",
 * "complex64", "c8", ...), not case-sensitive.  NumPy's character codes
 * mean what they mean in NumPy ("i8" and "<i8" are int64, "u8" uint64, "f2"
 * float16); sizes in bits are accepted where NumPy has no such code ("f32",
 * "i64"); spellings NumPy reads as another type ("f16", NumPy's float128,
 * "c32", big-endian ">i8") give KJIT_DTYPE_INVALID, as does anything else
 * (and NULL).  Thread-safe. */
KJIT_API kjit_dtype kjit_dtype_from_name(const char *name);

/* ------------------------------------------------------------ arrays ---- */

/* An n-dimensional array (1 to 4 dimensions; 0 = one element) of one
 * dtype: a data pointer, a shape and byte strides.  Arrays are host memory:
 * on the CPU target kernels use them in place.  Device arrays (and copies
 * between host and device) come with the CUDA target.
 *
 * An array belongs to the context it was made in and lives until
 * kjit_array_destroy or the context's destruction.  A handle used after
 * kjit_array_destroy is detected by every call that takes it (launch: "array
 * was destroyed", accessors: NULL/-1), as long as fewer than 4096 arrays of
 * the context were destroyed after it (older destroyed handles are
 * released; using one is undefined). */
typedef struct kjit_array kjit_array;

#define KJIT_MAX_NDIM 8

/* Allocates a zero-filled, C-ordered (row-major) host array of `ndim`
 * dimensions (0..KJIT_MAX_NDIM) with shape[0..ndim) (each >= 0; shape may be
 * NULL when ndim is 0), 64-byte aligned.  *out owns it.  Errors:
 * INVALID_ARGUMENT (bad dtype, ndim or shape; size overflow),
 * OUT_OF_MEMORY (no memory for an array of that size). */
KJIT_API kjit_status kjit_array_create(kjit_context *ctx, kjit_dtype dtype,
                                       int ndim, const int64_t *shape,
                                       kjit_array **out);

/* Makes an array that views caller memory: no copy, no ownership.  The
 * caller keeps `data` alive and unchanged in place for as long as the array
 * is used, and frees it after kjit_array_destroy (which never frees it);
 * kernels write straight into it.  strides: ndim byte strides (any sign,
 * any order: a Fortran array is a strided view), or NULL for C order.
 * data may be NULL only for an empty array.  Errors: INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_array_wrap(kjit_context *ctx, kjit_dtype dtype,
                                     int ndim, const int64_t *shape,
                                     const int64_t *strides, void *data,
                                     kjit_array **out);

/* Allocates a zero-filled, C-ordered host array of records (NumPy's
 * structured dtype), as kjit_array_create does for numbers.  descr is the
 * dtype as a .npy header spells it (NumPy's dtype.descr, or the dict form):
 *   "[('x', '<f4'), ('y', '<i4')]"                      packed, 8 bytes
 *   "[('x', '|i1'), ('', '|V7'), ('y', '<f8')]"         align=True's padding
 *   "{'names': ['x', 'y'], 'formats': ['<f4', '<i4'], 'offsets': [0, 4],
 *     'itemsize': 8, 'aligned': True}"
 *   "[('id', '<i8'), ('p', [('a', '<f4')]), ('v', '<f4', (3,))]" nested
 * Fields hold bool, ints, floats, complex (little-endian), records and
 * fixed-size arrays of them.  descr is read during the call only; the array
 * keeps its own copy (kjit_array_descr).  Kernels see the array as an array
 * of Numba's Record type (docs/language.md).  *out owns the array.  Errors:
 * INVALID_ARGUMENT (a malformed or unsupported descr, with what is wrong;
 * bad ndim or shape), OUT_OF_MEMORY (no memory for an array of that size). */
KJIT_API kjit_status kjit_array_create_record(kjit_context *ctx, const char *descr, int ndim,
                                              const int64_t *shape, kjit_array **out);

/* A record array's dtype as NumPy's descr text (what a .npy header of it
 * holds); NULL for arrays of numbers and bad handles.  Valid until the
 * array is destroyed.  An accessor: the last error is untouched. */
KJIT_API const char *kjit_array_descr(const kjit_array *a);

/* Bytes per element: kjit_dtype_size of the dtype, or a record's itemsize;
 * -1 for a NULL or destroyed handle.  An accessor. */
KJIT_API int64_t kjit_array_itemsize(const kjit_array *a);

/* A record array's fields, in offset order: their count (0 for arrays of
 * numbers, -1 for a NULL or destroyed handle) and names (NULL for an index
 * out of range; valid until the array is destroyed).  Accessors: the last
 * error is untouched. */
KJIT_API int kjit_array_field_count(const kjit_array *a);
KJIT_API const char *kjit_array_field_name(const kjit_array *a, int i);

/* Field i of every element of host record array a, as an array of its own
 * (NumPy's a['x']): a strided view of a's memory, no copy, with the field's
 * dtype (KJIT_RECORD for a nested record, whose fields this call views in
 * turn) and a's shape followed by the field's own for a fixed-size array
 * field.  *out is a new handle that owns no memory, as from kjit_array_wrap:
 * a must outlive it; destroy it with kjit_array_destroy (or the context).
 * Errors: NOT_FOUND (i out of range, or a is no record array),
 * INVALID_ARGUMENT (NULLs, a destroyed or device array, a view of more than
 * KJIT_MAX_NDIM dimensions). */
KJIT_API kjit_status kjit_array_field(kjit_array *a, int i, kjit_array **out);

/* Reads a NumPy .npy file (format 1.0/2.0/3.0, every kjit dtype, either
 * byte order, C or Fortran order; a Fortran file becomes a strided view,
 * never transposed; structured dtypes as kjit_array_create_record takes
 * them, a 0-d one being a single record) into a new array owned by *out.
 * A file of 1 MiB or more in native byte order is mapped copy-on-write, not
 * read: writes to the array never reach the file, and the file must not be
 * truncated while the array lives (the process would get SIGBUS).  Errors: IO with
 * "PATH: what is wrong" (missing, unreadable, malformed, truncated,
 * unsupported dtype), OUT_OF_MEMORY (no memory for the data the header
 * describes), INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_array_load_npy(kjit_context *ctx, const char *path,
                                         kjit_array **out);

/* Writes the array as a .npy file (C order, native byte order) through a
 * temporary file beside the destination renamed into place: the file is
 * either left as it was or replaced by the complete one.  The rules are
 * those of np.save and shell redirection (docs/api.md, "Writing files"): a
 * link to a regular file is written through and kept; /dev/null is written
 * in place; a FIFO, device, folder or dangling link is refused; a file the
 * caller cannot write is refused (unless running as root); a replaced file
 * keeps its owner, group and mode, a new one gets 0666 & ~umask.  A
 * temporary left by a killed writer is removed by the next save to the
 * same path.  Errors (on the array's context): IO, INVALID_ARGUMENT (NULL,
 * destroyed array). */
KJIT_API kjit_status kjit_array_save_npy(kjit_array *a, const char *path);

/* Saves n host arrays to n paths by the same rules, all or none: every
 * file is written to its temporary first and only when all are complete
 * are they renamed into place.  Two paths leading to one file are refused
 * (IO, "written twice").  The arrays belong to ctx. */
KJIT_API kjit_status kjit_array_save_npy_all(kjit_context *ctx, kjit_array *const *arrays,
                                             const char *const *paths, int n);

/* Whether kjit_array_save_npy may write path, checked before anything is
 * computed: KJIT_OK, or IO with the reason ("it is a FIFO", "it is
 * read-only").  The save checks again. */
KJIT_API kjit_status kjit_array_save_check(kjit_context *ctx, const char *path);

/* Async-signal-safe: removes the temporary files of saves in progress in
 * this process.  Call it from a handler of a signal that ends the process
 * (the library installs no handlers). */
KJIT_API void kjit_remove_temporaries(void);

/* Writes the same .npy bytes to the open file descriptor fd, from its
 * current position; fd stays open and owned by the caller (who chooses
 * where the bytes go: a temporary file renamed later, a pipe).  name (may be
 * NULL) is what error messages call the destination.  Errors as
 * kjit_array_save_npy. */
KJIT_API kjit_status kjit_array_write_npy_fd(kjit_array *a, int fd, const char *name);

/* Accessors.  They do not touch the last error; for a NULL or destroyed
 * handle they return NULL / -1 / KJIT_DTYPE_INVALID.  Pointers stay valid
 * until the array is destroyed. */
KJIT_API void *kjit_array_data(const kjit_array *a);
KJIT_API int kjit_array_ndim(const kjit_array *a);
KJIT_API const int64_t *kjit_array_shape(const kjit_array *a);   /* ndim entries */
KJIT_API const int64_t *kjit_array_strides(const kjit_array *a); /* bytes */
KJIT_API kjit_dtype kjit_array_dtype(const kjit_array *a);
KJIT_API int64_t kjit_array_size(const kjit_array *a);           /* elements */

/* Creates the states of n xoroshiro128+ generators for numba.cuda.random
 * (xoroshiro128p_next/uniform/normal in kernels): a zero-based, C-ordered
 * uint64 host array of shape (n, 2), row i = (s0, s1) of generator i, the
 * bytes of Numba's xoroshiro128p_dtype records.  The values are those of
 * Numba's create_xoroshiro128p_states(n, seed, subsequence_start): generator
 * 0 seeded by SplitMix64(seed) and advanced subsequence_start times by 2^64
 * steps, generator k = generator k-1 advanced 2^64 steps more (a jump costs
 * 128 steps, so creation time grows with n + subsequence_start).  *out owns
 * the array.  Thread-safe for distinct contexts.  Errors: INVALID_ARGUMENT
 * (n < 0, NULL ctx or out), OUT_OF_MEMORY (no memory for n generators). */
KJIT_API kjit_status kjit_array_xoroshiro128p(kjit_context *ctx, int64_t n, uint64_t seed,
                                              uint64_t subsequence_start, kjit_array **out);

/* Releases the array (and its memory unless it came from kjit_array_wrap;
 * a device array's device memory too; an array imported from or exported
 * as a DLPack tensor drops its reference to the memory, which the last
 * user releases: see "DLPack").  NULL and already destroyed handles are
 * ignored. */
KJIT_API void kjit_array_destroy(kjit_array *a);

/* ------------------------------------------------------ device arrays --- */

/* Device arrays live in the GPU memory of the context's device (cuda
 * target only) and stay there: a launch passes their pointers with no
 * copy, as Numba does with its device arrays, while host arrays passed to
 * a launch are copied to the device before it and back after it.  A device
 * array is C-contiguous.  kjit_array_data returns its device pointer (a
 * CUdeviceptr, never to be dereferenced on the host); the other accessors
 * work as for host arrays; kjit_array_save_npy and kjit_array_field
 * refuse it (copy it to a host array first).  After a kernel fault the
 * context is unusable (kjit_fault_policy); where it is reset
 * (KJIT_FAULT_RESET) every device array allocated before becomes invalid:
 * a launch or copy using one fails with "array was allocated before a
 * device fault and is no longer valid" (destroy it). */

/* A new uninitialised device array.  Resolves the context's target
 * (kjit_context_target) first.  Errors: NO_DEVICE (the context does not
 * run on a GPU: "device arrays need the cuda target", with the reason),
 * OUT_OF_MEMORY (the device's memory cannot hold it), INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_array_create_device(kjit_context *ctx, kjit_dtype dtype,
                                              int ndim, const int64_t *shape,
                                              kjit_array **out);

/* A new device array holding a copy of host array `host` (which must be
 * C-contiguous).  Synchronous.  Errors as kjit_array_create_device, and
 * INVALID_ARGUMENT for a destroyed, device or non-contiguous source. */
KJIT_API kjit_status kjit_array_to_device(kjit_context *ctx, kjit_array *host,
                                          kjit_array **out);

/* Copies src into dst: host->device, device->host, device->device or
 * host->host.  Both arrays belong to the same context and have the same
 * dtype and shape, and both are C-contiguous.  The copy is queued on the
 * context's stream after every launch queued before it, and the call
 * returns when it is complete (so a device->host copy reads a kernel's
 * results; a fault of a queued kernel is reported here).  Errors (on dst's
 * context): INVALID_ARGUMENT (mismatch, destroyed or stale arrays),
 * KERNEL_FAULT (a queued kernel faulted), NO_DEVICE (driver errors). */
KJIT_API kjit_status kjit_array_copy(kjit_array *dst, kjit_array *src);

/* 1 for a device array, 0 for a host array, -1 for a NULL or destroyed
 * handle.  An accessor: the last error is untouched. */
KJIT_API int kjit_array_is_device(const kjit_array *a);

/* The same copy queued on `stream` (a CUstream / cudaStream_t of the
 * context's CUDA context, KJIT_STREAM_LEGACY, KJIT_STREAM_PER_THREAD, or
 * NULL for the context's own stream) after the work queued there, without
 * waiting: the copy is complete once the stream is synchronized.  A host
 * array must then stay untouched (and alive) until that synchronization;
 * pageable host memory makes the driver stage the copy, pinned memory
 * overlaps with kernels.  Between device arrays only while the stream is
 * under graph capture.  Errors as kjit_array_copy, and INVALID_ARGUMENT for
 * a stream that is not a live stream of the context (destroyed, of another
 * context).  On the cpu target: as kjit_array_copy.  Thread-safety as
 * kjit_array_copy. */
KJIT_API kjit_status kjit_array_copy_async(kjit_array *dst, kjit_array *src, void *stream);

/* ------------------------------------- embedding in a CUDA program --- */

/* A kjit array over device memory the caller owns: no copy, no ownership
 * (kjit_array_destroy never frees it; the caller keeps it allocated while
 * the array or a launch using it lives).  device_ptr is a CUdeviceptr (a
 * cudaMalloc'd pointer cast to uint64_t): memory from cuMemAlloc /
 * cudaMalloc, a stream-ordered pool (cuMemAllocAsync), managed memory, or
 * mapped pinned host memory, of the context's device.  strides are in bytes
 * (any sign and order: a Fortran array or a column is a strided view), NULL
 * for C order.  Kernels take it like a kjit device array, specializing on
 * its layout (C-contiguous or any strides) as Numba does; launches pass
 * the pointer with no copy.  The driver is asked (cuPointerGetAttribute)
 * and the call fails, naming 'device_ptr', for a pointer the driver does
 * not know (a host pointer), memory of another device, an element pointer
 * not aligned to the dtype, or an array reaching past the allocation.
 * Resolves the context's target: NO_DEVICE on the cpu target ("device
 * arrays need the cuda target").  Errors: INVALID_ARGUMENT (as said, and
 * bad dtype/ndim/shape), NO_DEVICE.  Thread-safe (the context's lock). */
KJIT_API kjit_status kjit_array_wrap_device(kjit_context *ctx, kjit_dtype dtype, int ndim,
                                            const int64_t *shape, const int64_t *strides,
                                            uint64_t device_ptr, kjit_array **out);

/* A view of array a (host or device, not records): ndim dimensions of
 * shape, strides in bytes (NULL: C order), starting `offset` bytes from a's
 * data: a column of a matrix is kjit_array_view(a, 1, &rows, &row_stride,
 * col * itemsize, &col).  No copy: a must outlive the view (destroy the view
 * first; kjit_array_destroy of the view frees nothing).  Every element of
 * the view must lie inside a's elements' span.  Errors: INVALID_ARGUMENT
 * (destroyed array, record array, bad shape, out of bounds). */
KJIT_API kjit_status kjit_array_view(kjit_array *a, int ndim, const int64_t *shape,
                                     const int64_t *strides, int64_t offset, kjit_array **out);

/* The default streams, valid in every CUDA context (CUDA's CU_STREAM_LEGACY
 * and CU_STREAM_PER_THREAD): kjit_launch_config.stream and the stream
 * arguments below take them. */
#define KJIT_STREAM_LEGACY ((void *)0x1)
#define KJIT_STREAM_PER_THREAD ((void *)0x2)

/* Streams for callers without their own.  On the cuda target *stream is a
 * CUstream made in the context's CUDA context (non-blocking: it does not
 * wait for the legacy default stream); on the cpu target a token that
 * launches accept (they are synchronous there).  Destroyed by
 * kjit_stream_destroy or with the context.  kjit_stream_synchronize waits
 * for `stream` (any stream of the context's CUDA context: the caller's
 * too; NULL: the context's own) and reports a fault of a kernel queued on
 * it (KERNEL_FAULT, naming the last kernel kjit queued); it waits for
 * nothing else.  kjit_stream_destroy takes only streams kjit_stream_create
 * made (INVALID_ARGUMENT otherwise); work queued on it still completes.
 * Errors: INVALID_ARGUMENT, NO_DEVICE (the driver's failure).
 * Thread-safe (the context's lock). */
KJIT_API kjit_status kjit_stream_create(kjit_context *ctx, void **stream);
KJIT_API kjit_status kjit_stream_synchronize(kjit_context *ctx, void *stream);
KJIT_API kjit_status kjit_stream_destroy(kjit_context *ctx, void *stream);

/* Events for timing work on a stream: kjit_event_record queues event on
 * stream (as kjit_stream_synchronize takes it); kjit_event_elapsed_ms waits
 * for `end` and gives the milliseconds between the two (CUDA events'
 * resolution, about 0.5 us; on the cpu target the host clock's at the
 * record calls).  Events are CUevents on the cuda target; destroyed by
 * kjit_event_destroy or with the context.  Errors: INVALID_ARGUMENT (not
 * made by kjit_event_create on this context, never recorded), NO_DEVICE.
 * Thread-safe (the context's lock). */
KJIT_API kjit_status kjit_event_create(kjit_context *ctx, void **event);
KJIT_API kjit_status kjit_event_record(kjit_context *ctx, void *event, void *stream);
KJIT_API kjit_status kjit_event_elapsed_ms(kjit_context *ctx, void *start, void *end,
                                           double *ms);
KJIT_API kjit_status kjit_event_destroy(kjit_context *ctx, void *event);

/* ------------------------------------------------------ read-only arrays --- */

/* A read-only array is passed to kernels as Numba's `readonly array(...)`
 * type: a kernel (or a device function it calls) that stores into it, or
 * updates it atomically, is refused when it is compiled for the launch,
 * naming the parameter ("argument 2 ('out') is a read-only array and
 * kernel 'k' writes to it"), and a read-only and a writable array never
 * share a specialization.  kjit_array_copy and kjit_ufunc_call refuse a
 * read-only destination, and a launch on the cuda target never copies a read-only
 * host array back.  Arrays are writable unless made read-only here or
 * imported from a DLPack tensor with the read-only flag.
 * kjit_array_set_readonly sets (1) or clears (0) the flag; clearing it on
 * an array imported read-only is refused (INVALID_ARGUMENT: the producer
 * said it must not be written).  Takes the context's lock; not to be
 * called while a launch on another thread uses the array. */
KJIT_API kjit_status kjit_array_set_readonly(kjit_array *a, int readonly);

/* 1 for a read-only array, 0 for a writable one, -1 for a NULL or
 * destroyed handle.  An accessor: the last error is untouched. */
KJIT_API int kjit_array_is_readonly(const kjit_array *a);

/* ---------------------------------------------------------------- DLPack --- */

/* DLPack tensors in and out (structs: kjit_dlpack.h, layout-identical to
 * DLPack's DLManagedTensor and DLManagedTensorVersioned: pass a pointer to
 * either with a cast).
 *
 * Import.  kjit_array_from_dlpack (0.x) and kjit_array_from_dlpack_versioned
 * (1.x: version.major must be 1) make a kjit array over the tensor's memory,
 * with no copy:
 *   - kDLCPU and kDLCUDAHost tensors become host arrays (as
 *     kjit_array_wrap), on either target;
 *   - kDLCUDA and kDLCUDAManaged tensors become device arrays (as
 *     kjit_array_wrap_device) of a cuda-target context whose device is
 *     device_id; on a cpu-target context a kDLCUDA tensor is refused
 *     (NO_DEVICE, naming the device type), while a kDLCUDAManaged one,
 *     which the host can read and write, becomes a host array;
 *   - strides are in elements (NULL = C order) and become kjit's byte
 *     strides; byte_offset is added to data;
 *   - dtypes: int8..int64, uint8..uint64, float16/32/64, complex64/128 and
 *     bool (kDLBool, 8 bits; a uint8 tensor stays uint8), one lane;
 *     bfloat16 is refused (kjit arrays have no bfloat16 dtype);
 *   - ndim 0..KJIT_MAX_NDIM, every extent >= 0;
 *   - versioned: the READ_ONLY flag makes the array read-only (see above);
 *     IS_COPIED changes nothing.
 * Ownership: on success the array owns the managed tensor: kjit calls its
 * deleter (when not NULL) exactly once, when the last user of the memory
 * goes (kjit_array_destroy or the context's destruction, and every
 * tensor exported from the array released: see Export).  On any error
 * nothing is kept and the deleter is NOT called: the caller still owns
 * the tensor (and must delete it).  The deleter runs on whichever thread
 * lets the last reference go: inside kjit_array_destroy or
 * kjit_context_destroy (holding that context's lock: it may call kjit on
 * this thread, but must not wait for another thread that does), or inside
 * an export's deleter (no kjit lock).  Errors: INVALID_ARGUMENT (NULLs, a dtype, lanes, ndim, shape or
 * device type kjit does not take, a version it does not know, a device_id
 * that is not the context's device; the message names the field), NO_DEVICE
 * (a CUDA tensor on a context that does not run on a GPU).  Takes the
 * context's lock. */
KJIT_API kjit_status kjit_array_from_dlpack(kjit_context *ctx, struct kjit_dl_managed_tensor *tensor,
                                            kjit_array **out);
KJIT_API kjit_status kjit_array_from_dlpack_versioned(kjit_context *ctx,
                                                      struct kjit_dl_managed_tensor_versioned *tensor,
                                                      kjit_array **out);

/* Export.  A new DLPack tensor viewing the array's memory (no copy): a
 * host array as kDLCPU (or the device type it was imported with: kDLCUDAHost,
 * kDLCUDAManaged), a device array as kDLCUDA with the context's device
 * ordinal; shape and strides (in elements) point into the tensor's own
 * allocation; the versioned form has version {1, 0} and the READ_ONLY flag
 * for a read-only array.  The consumer calls the tensor's deleter once when
 * done.  The memory stays valid until BOTH kjit_array_destroy (or the
 * context's destruction) and the deleter have run, in either order, on any
 * threads: the array and each export hold a reference to its storage, and
 * the last one frees it (kjit's own host or device memory) or calls the
 * deleter of the tensor it was imported from.  Memory given to
 * kjit_array_wrap or kjit_array_wrap_device stays the caller's: an export
 * of such an array is valid only as long as the caller keeps the memory.
 * Device memory lives in the CUDA context the kjit context runs in: the
 * export retains it until the last reference goes when it is the primary
 * context (the default); a caller's context is the caller's to keep alive;
 * kjit's own (KJIT_CUDA_CONTEXT_OWN) dies, with the memory, at
 * kjit_context_destroy, so such an export is valid until then (docs/api.md,
 * "Storage lifetime").  A device fault resets the device and
 * invalidates every device pointer, exported ones included.  Errors:
 * INVALID_ARGUMENT (NULLs, a destroyed array, a record array, byte strides
 * that are not a multiple of the item size).  Takes the context's lock;
 * the deleter takes none. */
KJIT_API kjit_status kjit_array_to_dlpack(kjit_array *a, struct kjit_dl_managed_tensor **out);
KJIT_API kjit_status kjit_array_to_dlpack_versioned(kjit_array *a,
                                                    struct kjit_dl_managed_tensor_versioned **out);

/* ------------------------------------------------ globals the host binds --- */

/* Binds the module-level global `name` of prog to `array`.  Numba reads a
 * global when it compiles a kernel, even one the host program computes
 * (`A = np.random.rand(16)`, `T = make_table()`, `D = cuda.device_array(8,
 * np.float32)`); kjit runs no host Python, so such a global -- a top-level
 * name assigned from a call that does not fold to a constant -- must be
 * bound before a kernel that uses it is compiled (else the compile fails
 * with "global 'A' is computed by the host ... and no array is bound to
 * it").  As in Numba, by the global's own definition:
 *   - a NumPy array global is frozen: the elements are copied now (any
 *     strides; packed in C order, at most 64 KiB: constant memory) and
 *     kernels see a read-only C-contiguous array.  `array` stays the
 *     caller's and may be destroyed or changed right after the call.  It
 *     must be a host array.
 *   - a device array global (assigned from cuda.to_device, device_array,
 *     device_array_like, mapped_array or managed_array, or from a def of the
 *     file returning one; a cuda.to_device of constants, read as a frozen
 *     constant while unbound, too) is captured by
 *     reference: kernels read and write the memory of `array`, whose
 *     address, shape and strides are embedded in the code.  On the cpu
 *     target `array` is a host array used in place; on the cuda target a
 *     device array used in place, or a host array copied once into a
 *     device array that the program owns (writes then stay on the device).
 *     The caller keeps `array` alive, unmoved, while kernels compiled with
 *     it run.
 * A kernel reads the binding when a specialization is compiled (its first
 * launch with given argument types, kjit_program_emit), as Numba reads the
 * global once; binding again affects only what is compiled later.  The
 * disk cache key covers a frozen array's bytes and a captured array's
 * address.  1 to 4 dimensions; float16 and complex dtypes are refused.
 * Errors: NOT_FOUND (no such global, or it is a compile-time constant),
 * INVALID_ARGUMENT (NULL, a destroyed array, another context's array, a
 * dtype or size refused, a device array for a NumPy global or on the cpu
 * target), NO_DEVICE, OUT_OF_MEMORY (device memory for a copy on the cuda
 * target). */
KJIT_API kjit_status kjit_program_set_global(kjit_program *prog, const char *name,
                                             kjit_array *array);

/* ---------------------------------------------------------- arguments --- */

/* One kernel argument.  Build it with the kjit_arg_* helpers below or fill
 * it by hand; each kind says which union member it uses. */
typedef enum kjit_arg_kind {
  KJIT_ARG_ARRAY = 0,    /* value.array (not owned by the kjit_arg) */
  KJIT_ARG_INT64 = 1,    /* value.i64: a Python int, typed int64 as Numba does */
  KJIT_ARG_FLOAT64 = 2,  /* value.f64: a Python float, typed float64 */
  KJIT_ARG_SCALAR = 3,   /* value.bits holding a `dtype` value in its own
                            native representation (float16: IEEE bits;
                            complex: real then imaginary part) */
  KJIT_ARG_TUPLE = 4,    /* value.tuple: a Python tuple (or, with a name, a
                            namedtuple instance) of 0 to 16 elements,
                            each INT64, FLOAT64, SCALAR, ARRAY (a host
                            array, used in place) or a nested TUPLE (at
                            most 4 deep), typed as Numba types it:
                            UniTuple(int64 x 2) when all element types are
                            equal, else Tuple(int64, float64) */
  KJIT_ARG_POINTER = 5,  /* value.ptr: a raw pointer to elements of `dtype`,
                            typed Numba's CPointer(dtype), for a parameter
                            declared types.CPointer(T) (or a lazy kernel,
                            which specializes on it).  The address is used
                            as it is: a device pointer on the cuda target
                            (kjit_array_device_ptr, or the host program's
                            own cuMemAlloc memory), a host pointer on the
                            cpu target; kjit neither copies nor checks the
                            memory behind it.  A KJIT_ARG_INT64 holding the
                            address is accepted for such a parameter too,
                            as Numba accepts a Python int */
} kjit_arg_kind;

typedef struct kjit_arg {
  kjit_arg_kind kind;
  kjit_dtype dtype;      /* KJIT_ARG_SCALAR: the value's; KJIT_ARG_POINTER:
                            the pointee's */
  union {
    kjit_array *array;
    void *ptr;           /* KJIT_ARG_POINTER (not owned) */
    int64_t i64;
    double f64;
    unsigned char bits[16];
    struct {
      const struct kjit_arg *elems; /* count elements (NULL when 0), not
                                       owned (read during the call only) */
      int count;
      const char *name;  /* NULL: a plain tuple.  Else an instance of the
                            namedtuple class bound to this name in the
                            kernel file (Point = namedtuple('Point', ['x',
                            'y'])), typed as Numba's NamedUniTuple /
                            NamedTuple: elems are its fields in class order */
      const char *const *keys; /* NULL, or count entries: the field elems[i]
                            gives (NULL: positional; keyword ones last) */
    } tuple;
  } value;
} kjit_arg;

/* Argument builders (pure functions; thread-safe).  kjit_arg_scalar copies
 * kjit_dtype_size(dtype) bytes from `value`; with an invalid dtype or a NULL
 * value the launch reports the argument. */
KJIT_API kjit_arg kjit_arg_array(kjit_array *a);
KJIT_API kjit_arg kjit_arg_i64(int64_t v);
KJIT_API kjit_arg kjit_arg_f64(double v);
KJIT_API kjit_arg kjit_arg_scalar(kjit_dtype dtype, const void *value);
/* A raw pointer to elements of dtype (KJIT_ARG_POINTER): the memory is not
 * owned, copied or bounds-checked; it must stay valid until the kernel has
 * run (on the cuda target: until its stream is synchronized). */
KJIT_API kjit_arg kjit_arg_pointer(kjit_dtype dtype, void *ptr);
/* A tuple of elems[0..count): the array is referenced, not copied, and must
 * stay valid until the launch using it returns.  Tuple arguments run on
 * both targets (on the cuda target one kernel parameter holding the
 * elements in order: docs/cli.md, "Kernel parameters"). */
KJIT_API kjit_arg kjit_arg_tuple(const kjit_arg *elems, int count);
/* An instance of namedtuple class `name` of the kernel file: elems are
 * its fields in class order (name and elems are referenced, not copied;
 * set .value.tuple.keys to give fields by name).  At the launch the class
 * is looked up ("no namedtuple class 'Pnt' in 'x.py'") and the fields
 * checked (count, names).  Both targets; layout as the plain tuple. */
KJIT_API kjit_arg kjit_arg_named_tuple(const char *name, const kjit_arg *elems, int count);

/* ------------------------------------------------------------ kernels --- */

/* A kernel of a program, ready to launch.  Handles are owned by the
 * program: asking twice for a name gives the same handle, and every handle
 * becomes invalid when the program is destroyed.  A kernel keeps its
 * compiled specializations (one per argument-type signature: dtype, ndim
 * and layout of each array, type of each scalar), so only the first launch
 * with new argument types compiles. */
typedef struct kjit_kernel kjit_kernel;

/* Finds kernel `name` in prog.  Errors: NOT_FOUND ("no kernel 'ad' in
 * 'x.py'; did you mean 'add'?", or that it is a device function),
 * INVALID_ARGUMENT.  In a CUDA C program `name` is a name expression
 * ("vector_add", "scale<float>", "static_cast<void(*)(int*)>(f)"); the
 * kernel's C parameters are read here: NOT_FOUND for an unknown name, a
 * template without arguments or an overloaded name, TYPE for a parameter
 * type kjit cannot pass (the message names it).  In a Python program `name`
 * may also be a call of a kernel factory ("make_blur(2)": a top-level def
 * that defines a @cuda.jit kernel closing over its arguments and returns it):
 * the kernel is made on the first such call, named by that text, added to
 * the program's kernels (kjit_program_kernel_count grows) and found again
 * by later calls; errors in it are reported as for any kernel. */
KJIT_API kjit_status kjit_program_kernel(kjit_program *prog, const char *name,
                                         kjit_kernel **out);

/* The kernel's name and parameters (names as written in the def, or in
 * the C parameter list, "argN" for an unnamed one; *name lives as long as
 * the program).  Accessors: the last error is untouched.
 * kjit_kernel_param_name gives NOT_FOUND for an index out of range. */
KJIT_API kjit_status kjit_kernel_name(const kjit_kernel *k, const char **name);
KJIT_API kjit_status kjit_kernel_param_count(const kjit_kernel *k, int *count);
KJIT_API kjit_status kjit_kernel_param_name(const kjit_kernel *k, int i,
                                            const char **name);

/* ------------------------------------------------------------- launch --- */

/* A launch's geometry.  Start from kjit_launch_config_init (grid and block
 * {1,1,1}, no dynamic shared memory). */
typedef struct kjit_launch_config {
  uint32_t grid[3];      /* blocks per grid, x y z; each >= 1 */
  uint32_t block[3];     /* threads per block, x y z; product <= 1024 */
  size_t shared_bytes;   /* dynamic shared memory per block (the kernel's
                            cuda.shared.array(0, ...)) */
  void *stream;          /* the CUstream / cudaStream_t to launch on (the
                            caller's, of the context's CUDA context; or
                            KJIT_STREAM_LEGACY / _PER_THREAD; or a
                            kjit_stream_create stream); NULL: the context's
                            own stream.  Ignored on the cpu target. */
  int repeat;            /* 0 or 1: launch once; N > 1: N back-to-back
                            launches on the same arguments (host arrays
                            copied in once before and out once after), the
                            median kernel time in kjit_last_timing's run */
  int use_graph;         /* cuda target with repeat > 1: capture the N
                            launches in one CUDA graph and replay it (run =
                            replay time / N); ignored on the cpu target */
} kjit_launch_config;

/* Fills *cfg with a 1x1x1 grid of 1x1x1 blocks, repeat 1, no graph.  NULL
 * is ignored. */
KJIT_API void kjit_launch_config_init(kjit_launch_config *cfg);

/* Runs kernel k over cfg's grid with args[0..nargs) (one per parameter, in
 * order) on the context's target (kjit_context_target).  The first launch
 * with a new argument-type signature compiles a specialization (array
 * arguments specialize on dtype, ndim and C-contiguity; KJIT_ARG_INT64 and
 * FLOAT64 are int64 and float64; an eager kernel's signatures must match,
 * scalars converting as Numba converts them).
 *
 * Everything is checked before anything runs, and an error names the kernel
 * and the argument: "kernel 'add' takes 3 arguments (2 given)", "argument 2
 * ('y'): array was destroyed", a type with no specialization, a block over
 * 1024 threads, a zero grid dimension, shared memory over the limit.
 *
 * On the CPU target the call is synchronous: when it returns the kernel has
 * finished and its writes are in the arrays (wrapped caller memory
 * included).  The arrays are used in place and must not be touched by other
 * threads meanwhile.
 *
 * On the CUDA target, a launch whose arrays are all device arrays (kjit's
 * or wrapped, kjit_array_wrap_device) and repeat <= 1 is asynchronous: it
 * is queued on cfg->stream (NULL: the context's stream) and the call
 * returns at once (run time 0 in kjit_last_timing); the results are
 * complete after that stream is synchronized (kjit_synchronize for the
 * context's, kjit_stream_synchronize or the program's own call for
 * another) or after a kjit_array_copy to the host, and a fault of the
 * kernel is reported there.  On a stream under graph capture the launch is
 * recorded, never run: see kjit_kernel_prepare.  Repeated launches of the
 * same kernel with the same argument types take a fast path (no
 * allocation, no compile lookup beyond one record per argument).  A launch
 * with any host array is synchronous: host arrays are copied to the
 * device, the kernel runs, and they are copied back (all of them, inputs
 * included), as Numba does with NumPy arrays.
 *
 * Errors: INVALID_ARGUMENT (NULLs, counts, destroyed arrays, geometry),
 * TYPE (no specialization for the argument types, typing errors in the
 * kernel), SYNTAX, CODEGEN, NO_DEVICE (target cuda without a GPU),
 * KERNEL_FAULT (the kernel faulted, on either target: an illegal address,
 * or with debug=True an index out of bounds or a failing assert), INTERNAL (also a failure the
 * CPU executor detected while running: a deadlock at a barrier),
 * OUT_OF_MEMORY (cuda target: device memory for host arrays' copies or the
 * kernel's module).  Times are in kjit_last_timing. */
KJIT_API kjit_status kjit_launch(kjit_kernel *k, const kjit_launch_config *cfg,
                                 const kjit_arg *args, int nargs);

/* Compiles and loads the specialization a kjit_launch of k with this
 * configuration and these arguments would use, and runs nothing: what a
 * launch under CUDA graph capture needs done beforehand (compiling and
 * loading a module cannot be captured).  Pass the arrays the captured
 * launches will use (or arrays of the same dtype, layout and 16-byte
 * alignment) and the same grid and block sizes class: a grid of more than
 * 2^31 threads in all takes another variant.  Then a kjit_launch on a
 * stream under capture (cuStreamBeginCapture) records only the kernel
 * node: no allocation, copy, compile, module load or synchronization; a
 * launch there that is not prepared, passes a host array, or asks for
 * repeat > 1 fails before anything is recorded (INVALID_ARGUMENT, naming the
 * kernel, and kjit_kernel_prepare in the message).  On the cpu target it
 * compiles.  Errors as kjit_launch's checks and compile.  Thread-safety as
 * kjit_launch. */
KJIT_API kjit_status kjit_kernel_prepare(kjit_kernel *k, const kjit_launch_config *cfg,
                                         const kjit_arg *args, int nargs);

/* The most blocks of block[0] x block[1] x block[2] threads (and
 * shared_bytes of dynamic shared memory each) that a launch of k with
 * these arguments may have when k synchronizes the grid
 * (cuda.cg.this_grid().sync(): every block must be resident at once, as
 * Numba's max_cooperative_grid_blocks).  The arguments pick the
 * specialization as kjit_launch would (it is compiled if needed; nothing
 * runs).  On the CUDA target: the driver's occupancy per SM times the
 * SMs (a kjit_launch of a grid-synchronizing kernel past it fails before
 * anything runs: "kernel 'k' synchronizes the grid, so all its N blocks
 * must be resident at once; the device holds at most M blocks of T
 * threads of it").  On the CPU target: 16384 threads in all divided by
 * the block's threads (the executor's limit for such kernels).  Errors as
 * kjit_launch's checks, NULL blocks: INVALID_ARGUMENT; *blocks is
 * untouched on error.  Thread-safety as kjit_launch. */
KJIT_API kjit_status kjit_kernel_max_cooperative_grid(kjit_kernel *k, const kjit_arg *args,
                                                      int nargs, const uint32_t block[3],
                                                      size_t shared_bytes, int64_t *blocks);

/* Waits until every launch and copy queued on the context's own stream has
 * finished (launches on other streams: kjit_stream_synchronize).  A kernel
 * fault is reported here, naming the kernel ("kernel 'k' faulted:
 * CUDA_ERROR_ILLEGAL_ADDRESS"); then the context is marked unusable, or
 * reset with fault_policy KJIT_FAULT_RESET (kjit_fault_policy).
 * Returns KJIT_OK at once on the cpu target or before the device is
 * opened.  Errors: KERNEL_FAULT (a queued kernel faulted), NO_DEVICE (driver
 * errors), INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_synchronize(kjit_context *ctx);

/* Times of the context's most recent successful kjit_launch, in
 * milliseconds: compiling (0 on a specialization cache hit), copying
 * between host and device (0 on the CPU target), running the kernel.  Each
 * out-parameter may be NULL; all 0 before the first launch. */
KJIT_API kjit_status kjit_last_timing(const kjit_context *ctx,
                                      double *compile_ms, double *copy_ms,
                                      double *run_ms);

/* The resources of the function the context's most recent resolved launch
 * ran on the GPU, as the driver's cuFuncGetAttribute gives them (what
 * Numba's get_regs_per_thread() reads): name, arch (the device's),
 * registers, stack_bytes (local memory per thread), static_shared_bytes,
 * const_bytes, max_threads_per_block; the fields the driver does not give
 * (barriers, spill bytes, sizes) are -1 (kjit_program_resources has them).
 * A launch that took the fast path leaves the value of the launch that
 * resolved that specialization, which is the same function.  Errors:
 * INVALID_ARGUMENT (NULLs), NOT_FOUND (no launch yet, or the last one ran
 * on the cpu target). */
KJIT_API kjit_status kjit_last_resources(const kjit_context *ctx, kjit_resources *out);

/* ------------------------------------------- tuned launch configurations --- */

/* What `kjit tune` (docs/cli.md) stores: the fastest launch configuration it
 * measured for one kernel specialization on one device and one class of
 * argument shapes.  Records live in the disk cache (docs/cache.md) as
 * self-validating entries; a record that is corrupt or out of range is
 * ignored, removed, and a warning says so (kjit_last_diagnostics). */
typedef enum kjit_tune_grid {
  KJIT_TUNE_GRID_COVER = 0, /* the grid covers the same threads per dimension
                               as the caller's grid did with its block */
  KJIT_TUNE_GRID_SMS = 1,   /* grid {sm_multiple x multiprocessors, 1, 1}: a
                               grid-stride kernel's fixed grid */
} kjit_tune_grid;

typedef enum kjit_tune_shared {
  KJIT_TUNE_SHARED_FIXED = 0,     /* shared_bytes as recorded */
  KJIT_TUNE_SHARED_PER_THREAD = 1,/* the caller's bytes scaled with the
                                     block's threads */
} kjit_tune_shared;

typedef struct kjit_tuning {
  uint32_t block[3];     /* the block measured fastest */
  uint32_t ref_block[3]; /* the block the tuning run started from (its
                            default: what an explicit grid was written for) */
  int grid_policy;       /* kjit_tune_grid */
  int sm_multiple;       /* KJIT_TUNE_GRID_SMS: blocks per SM, 1..1024 */
  int shared_policy;     /* kjit_tune_shared */
  size_t shared_bytes;   /* dynamic shared memory measured with block */
  double median_ms;      /* its kernel time: the median of the runs */
  double spread_ms;      /* and their spread (75th - 25th percentile) */
  int reserved[8];       /* zero */
} kjit_tuning;

/* The key a tuning record of k with these arguments is stored under, and
 * what decides the candidates kjit tune tries. */
typedef struct kjit_tuning_info {
  char key[65];          /* SHA-256 in hex over the four fields below */
  char kernel[64];       /* SHA-256 (16 hex digits) of the specialization's
                            typed IR: kernel, callees, folded constants and
                            argument types (a source change changes it) */
  char device[320];      /* "cuda NVIDIA H200 sm_90 132 SMs" or "cpu 16 threads" */
  char shapes[256];      /* the shape class: each array argument's extents
                            rounded up to a power of two, "(1048576) (1024,1024)" */
  int dims;              /* 1..3: the highest index dimension the kernel reads */
  int grid_stride;       /* the kernel reads gridDim (cuda.gridsize, a
                            grid-stride loop): its grid is free */
  int dynamic_shared;    /* it declares cuda.shared.array(0, ...) */
  int grid_sync;         /* it synchronizes the grid (not tunable) */
  int multiprocessors;   /* the device's SMs; the cpu target's threads */
  int max_threads_per_block; /* the device's limit (1024 on the cpu target) */
  int reserved[8];       /* zero */
} kjit_tuning_info;

/* Resolves a launch of k with args as kjit_launch would (the argument
 * checks, the eager signature, the context's target; nothing runs) and
 * specializes k's typed IR for it (no code generation) to fill *out.
 * Errors as kjit_launch's checks and typing, INVALID_ARGUMENT (NULLs).
 * Thread-safety as kjit_launch. */
KJIT_API kjit_status kjit_tuning_info_get(kjit_kernel *k, const kjit_arg *args, int nargs,
                                          kjit_tuning_info *out);

/* Stores *t as the record of k for these arguments (their key, as
 * kjit_tuning_info_get gives it), replacing an older one.  The values are
 * checked as a load checks them.  Errors: INVALID_ARGUMENT (NULLs, a value
 * out of range), IO (the disk cache is off or unwritable: the warning says
 * why), and kjit_tuning_info_get's. */
KJIT_API kjit_status kjit_tuning_store(kjit_kernel *k, const kjit_arg *args, int nargs,
                                       const kjit_tuning *t);

/* The record of k for these arguments into *t.  NOT_FOUND when there is
 * none (another kernel source, device or shape class has its own), or the
 * stored one is corrupt or invalid (then it is removed, with a warning in
 * kjit_last_diagnostics).  Errors as kjit_tuning_info_get. */
KJIT_API kjit_status kjit_tuning_load(kjit_kernel *k, const kjit_arg *args, int nargs,
                                      kjit_tuning *t);

/* The launch option for tuned configurations: replaces cfg's block (and
 * grid and shared_bytes, as the record's policies say) with the record of
 * k for these arguments.  cfg comes in as the caller's own configuration
 * (grid, block, shared_bytes, e.g. 256 threads and the grid covering the
 * data with them); KJIT_TUNE_GRID_COVER keeps the threads it covers per
 * dimension.  NOT_FOUND: no usable record, cfg untouched (launch it as
 * it is).  kjit_launch_config has no reserved fields, so this is a call
 * rather than a field: the struct's size stays part of the ABI.  Errors as
 * kjit_tuning_load, INVALID_ARGUMENT (cfg NULL). */
KJIT_API kjit_status kjit_launch_config_tuned(kjit_kernel *k, const kjit_arg *args, int nargs,
                                              kjit_launch_config *cfg);

/* ---------------------------------------------------- device functions --- */

/* A value returned by kjit_call: dtype says which member holds it. */
typedef struct kjit_value {
  kjit_dtype dtype;      /* KJIT_NONE when the function returns nothing */
  union {
    int64_t i64;         /* KJIT_INT8 .. KJIT_INT64 (sign-extended) */
    uint64_t u64;        /* KJIT_UINT8 .. KJIT_UINT64 (zero-extended) */
    float f32;           /* KJIT_FLOAT32 */
    double f64;          /* KJIT_FLOAT64 */
    unsigned char b;     /* KJIT_BOOL: 0 or 1 */
  } value;
} kjit_value;

/* A device function (`@cuda.jit(device=True)`) of a program, ready for
 * kjit_call.  Handles are owned by the program, as kernel handles are:
 * asking twice for a name gives the same handle, and it becomes invalid
 * when the program is destroyed.  The function keeps its host
 * specializations (one per argument-type signature). */
typedef struct kjit_function kjit_function;

/* Finds device function `name` in prog.  Errors: NOT_FOUND (no such
 * function, with a did-you-mean, as kjit_program_kernel says it; "'add' is
 * a kernel; launch it with kjit_launch"), INVALID_ARGUMENT (NULLs). */
KJIT_API kjit_status kjit_program_function(kjit_program *prog, const char *name,
                                           kjit_function **out);

/* Calls device function f on the host CPU with its native signature,
 * through libffi: no grid, no kernel wrapper.  args[0..nargs) are as for
 * kjit_launch (arrays used in place, KJIT_ARG_INT64/FLOAT64 typed
 * int64/float64, an eager signature picking the parameter types and
 * converting scalars).  The first call with new argument types specializes
 * and JIT-compiles the function (kept with the program's kernels, so later
 * calls compile nothing).  The function runs as thread 0 of a one-thread
 * block: threadIdx etc. are 0 and 1; one that synchronizes or uses shared
 * memory is refused.
 *
 * On success *result (may be NULL) receives the returned value, dtype
 * KJIT_NONE for a function returning nothing; array writes are in the
 * arrays when the call returns.  Parameters and results of types C cannot
 * take from libffi here (float16, complex, tuples, returned arrays) are
 * refused with a message naming them.
 *
 * Runs on the CPU whatever the context's target, except that a context
 * created with KJIT_TARGET_CUDA refuses ("kjit_call runs device functions
 * on the cpu target only").  Errors: INVALID_ARGUMENT (a NULL or invalid
 * handle, argument count, NULL args, destroyed arrays, the cuda target),
 * TYPE (argument types, typing errors, unsupported types), SYNTAX, CODEGEN
 * (also a function that synchronizes or uses shared memory), INTERNAL.
 * Thread-safety as for the rest of the context (calls on it are
 * serialised: see "Threads" above). */
KJIT_API kjit_status kjit_call(kjit_function *f, const kjit_arg *args, int nargs,
                               kjit_value *result);

/* ------------------------------------------------------------ ufuncs --- */

/* A scalar function decorated `@vectorize` (with a list of signatures such
 * as ['float32(float32, float32)', ...], or none: typed at each call),
 * applied elementwise to arrays.  Handles are owned by the program (asking
 * twice gives the same handle; destroyed with it).  It runs on the
 * context's target, whatever its target= option says. */
typedef struct kjit_ufunc kjit_ufunc;

/* Finds @vectorize function `name` in prog.  Errors: NOT_FOUND ("no
 * @vectorize function named 'x'", or that it is a kernel or a device
 * function), INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_program_ufunc(kjit_program *prog, const char *name,
                                        kjit_ufunc **out);

/* The function's inputs (names as in the def; *name lives as long as the
 * program).  Accessors: the last error is untouched.
 * kjit_ufunc_param_name gives NOT_FOUND for an index out of range. */
KJIT_API kjit_status kjit_ufunc_param_count(const kjit_ufunc *u, int *count);
KJIT_API kjit_status kjit_ufunc_param_name(const kjit_ufunc *u, int i,
                                           const char **name);

/* Applies u to args[0..nargs) (one per input: arrays of any shape, strides
 * and memory, or scalars) as a NumPy ufunc call does:
 *   - types: the first listed signature the inputs match exactly, else the
 *     first they convert to safely (np.can_cast "safe"; a KJIT_ARG_INT64 /
 *     FLOAT64 Python number fits any number / any float); without
 *     signatures the function is typed for the inputs' dtypes;
 *   - shapes broadcast as NumPy's (aligned at the right; each dimension
 *     equal or 1); at least one input must be an array;
 *   - out (may be NULL): the array to write, of exactly the broadcast shape
 *     (any dtype: results convert as stores into arrays do).  Without it a
 *     new C-contiguous array of the signature's return dtype is made: a
 *     device array when any input is one, else a host array.
 * On success *result is out, or the new array, which the caller owns
 * (kjit_array_destroy, or the context frees it).  Host and device memory
 * are used as kjit_launch uses them (a call whose arrays all live on the
 * device is asynchronous on the cuda target).  kjit picks the launch: a
 * vectorized grid-stride loop when every array is C-contiguous with the
 * result's shape, else an indexed kernel over broadcast views; times are
 * in kjit_last_timing.  Errors: INVALID_ARGUMENT (counts, NULLs, destroyed
 * arrays, shapes that do not broadcast, out's shape, device arrays on the
 * cpu target), TYPE (no signature matches: the message lists them; typing
 * errors in the function), SYNTAX, CODEGEN, NO_DEVICE, OUT_OF_MEMORY (no
 * memory for the result array, or device memory), INTERNAL. */
KJIT_API kjit_status kjit_ufunc_call(kjit_ufunc *u, const kjit_arg *args,
                                     int nargs, kjit_array *out,
                                     kjit_array **result);

/* kjit_ufunc_call on `stream` (as kjit_launch_config.stream takes it: the
 * program's CUstream, KJIT_STREAM_LEGACY/_PER_THREAD, a kjit stream, NULL
 * for the context's): with device arrays only, queued there and returned
 * at once.  A new result array is allocated first (cuMemAlloc: outside a
 * graph capture pass `out`).  On the cpu target as kjit_ufunc_call. */
KJIT_API kjit_status kjit_ufunc_call_on_stream(kjit_ufunc *u, const kjit_arg *args, int nargs,
                                               kjit_array *out, void *stream,
                                               kjit_array **result);

/* ---------------------------------------------------------- reductions --- */

/* A function decorated `@cuda.reduce` (a binary scalar function, as in
 * Numba) reduces a whole 1-d array.  Handles are owned by the program:
 * asking twice for a name gives the same handle, and it becomes invalid
 * when the program is destroyed.  The reduction kernels for an array dtype
 * are generated and compiled the first time that dtype is reduced, then
 * reused. */
typedef struct kjit_reduction kjit_reduction;

/* Finds reduction `name` (a def decorated @cuda.reduce) in prog.  Errors:
 * NOT_FOUND (no such function, with a did-you-mean; or a function that is
 * not a @cuda.reduce one, saying what it is), INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_program_reduction(kjit_program *prog, const char *name,
                                            kjit_reduction **out);

/* Reduces the 1-d `array` with r's function f, as Numba's
 * `f(array, init=init)`: the result is f folded over the elements and
 * dtype(init) once (so init must be neutral for f to get the plain
 * reduction: 0 for a sum, 1 for a product, an element for max/min), and
 * dtype(init) for an empty array.  init may be NULL, meaning 0 as in
 * Numba; otherwise a scalar kjit_arg (KJIT_ARG_INT64, FLOAT64 or SCALAR),
 * converted to the array's dtype as a kernel converts it.  Every
 * intermediate value, and the result, has the array's dtype (Numba keeps
 * its partial results in arrays of that dtype): *result (not NULL) gets
 * dtype = the array's dtype.  The elements are combined in an order of
 * kjit's choosing (f must be associative and commutative; float sums may
 * differ from a sequential sum in the last bits).
 *
 * The array may be a host or a device array, of any strides, with dtype
 * int8 .. uint64, float32 or float64.  On the CUDA target a host array is
 * copied to the device first; the call returns when the value is on the
 * host (two kernel launches at most).  On the CPU target the executor's
 * threads each fold a contiguous chunk, then the partials are folded in
 * order.  Errors: INVALID_ARGUMENT (NULLs, a destroyed array, an array
 * argument as init), TYPE (an array that is not 1-d, an unsupported dtype,
 * typing errors in f for that dtype), SYNTAX, CODEGEN, NO_DEVICE,
 * OUT_OF_MEMORY (cuda target: device memory), INTERNAL.  kjit_last_timing holds the last launch's
 * times. */
KJIT_API kjit_status kjit_reduce(kjit_reduction *r, kjit_array *array,
                                 const kjit_arg *init, kjit_value *result);

/* kjit_reduce with its launches and the copy of the value queued on
 * `stream` (as kjit_launch_config.stream takes it), after the work already
 * there: the call waits for that stream only, never the device.  A host
 * array is first copied to the device on the context's stream.  On the cpu
 * target as kjit_reduce. */
KJIT_API kjit_status kjit_reduce_on_stream(kjit_reduction *r, kjit_array *array,
                                           const kjit_arg *init, void *stream,
                                           kjit_value *result);

/* --------------------------------------------------------- Disk cache --- */

/* Compiled output (PTX; host objects of the cpu target, keyed also by the
 * host CPU's name and features) is kept in a persistent cache shared by
 * every process of the user, so a warm process skips LLVM, and processes
 * needing the same kernel at once compile it once (the others wait at most
 * KJIT_CACHE_LOCK_WAIT seconds, default 30, for its entry).  Where:
 * $KJIT_CACHE_DIR, else $XDG_CACHE_HOME/kjit, else ~/.cache/kjit;
 * KJIT_CACHE=0 turns it off; KJIT_CACHE_MAX_BYTES caps its
 * size (default 256 MiB, least-recently used entries evicted).  The key
 * covers the typed IR of the kernel and of every device function and
 * constant it uses, the signature, target, options and the kjit, LLVM and
 * libdevice versions (docs/cache.md).  The cache never makes a call fail: a
 * damaged entry is a miss and is rewritten, and a directory that cannot be
 * written turns caching off for the context with one warning in
 * kjit_last_diagnostics ("cache directory '...' is not writable (...);
 * caching disabled"). */
typedef struct kjit_cache_info {
  int enabled;           /* 0: KJIT_CACHE=0, configured off, or turned off
                            after a write failure */
  const char *dir;       /* the directory ("" if none could be found); valid
                            until kjit_cache_configure or the context dies */
  uint64_t entries;      /* entry files in the directory now */
  uint64_t bytes;        /* their total size */
  uint64_t max_bytes;    /* the size cap */
  uint64_t hits, misses, stores, evictions; /* by this context: a hit read
                            an entry, a miss compiled one */
  uint64_t waits;        /* lookups that waited for another process (or
                            context) compiling the same entry */
} kjit_cache_info;

/* Replaces the context's cache settings: enabled = 0 turns the disk cache
 * off for ctx (KJIT_CACHE=0 turns it off regardless); dir = NULL uses the
 * environment's directory.  dir is copied.  Creates nothing on disk.
 * Errors: INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_cache_configure(kjit_context *ctx, int enabled,
                                          const char *dir);

/* Fills *out (scans the directory).  Errors: INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_cache_stats(kjit_context *ctx, kjit_cache_info *out);

/* Deletes every entry of the cache directory (the directory stays).
 * *removed (may be NULL) receives the count.  Safe while other processes
 * use the cache: they see misses.  Errors: IO (directory unreadable),
 * INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_cache_clear(kjit_context *ctx, uint64_t *removed);

/* Evicts least-recently used entries until the directory holds at most
 * max_bytes (kjit_cache_info.max_bytes for the cap).  *removed (may be NULL) receives the count.
 * Errors: IO, INVALID_ARGUMENT. */
KJIT_API kjit_status kjit_cache_prune(kjit_context *ctx, uint64_t max_bytes,
                                      uint64_t *removed);

/* -------------------------------------------------------------- info --- */

/* A description of this installation, as `kjit info` prints it: kjit's
 * version and build id, the LLVM version, the CUDA driver's version and the
 * PTX ISA it accepts, each device (name, compute capability, memory, SMs,
 * shared memory), whether nvJitLink was found, the disk cache's
 * directory and size, and every environment setting kjit reads (its
 * value, whether it was set, whether it is part of cache keys).  Loads the CUDA driver (dlopen) if present; a machine
 * without one is described ("CUDA driver: not available (...)"), not an
 * error.  *text is malloc'd for kjit_free.  Errors: INVALID_ARGUMENT (text
 * NULL).  Thread-safe. */
KJIT_API kjit_status kjit_info(char **text);

/* Next milestone (planned, not declared yet so nothing pretends to work):
 *   the disk cache in kjit_context_options. */

#ifdef __cplusplus
}
#endif

#endif /* KJIT_H */
