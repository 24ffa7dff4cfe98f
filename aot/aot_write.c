/* aot_write.c - the text of a `kjit aot` library: NAME.h (types, status
 * codes, one typed launcher per kernel and signature) and NAME.c (the
 * embedded cubins and PTX, the CPU code as a top-level asm block, the run
 * time of aot_runtime.c, the launchers).  Everything written is a function
 * of the Aot alone, in a fixed order: no time, no path, no addresses.
 * docs/aot.md documents the generated API and ABI. */
#include <stdlib.h>
#include <string.h>

#include "aot/aot.h"

/* The C storage of a scalar kind (TY_BOOL .. TY_C128): the element type of
 * an array's data, the type of a scalar parameter, the struct-name code. */
typedef struct CScalar {
  const char *ctype;      /* an element of an array's data */
  const char *param;      /* a scalar parameter of a launcher */
  const char *code;       /* NAME_<code>_<N>d */
  int itemsize;
} CScalar;

static const CScalar scalars[] = {
    [TY_BOOL] = {"uint8_t", "int", "b", 1},        [TY_I8] = {"int8_t", "int8_t", "i8", 1},
    [TY_I16] = {"int16_t", "int16_t", "i16", 2},   [TY_I32] = {"int32_t", "int32_t", "i32", 4},
    [TY_I64] = {"int64_t", "int64_t", "i64", 8},   [TY_U8] = {"uint8_t", "uint8_t", "u8", 1},
    [TY_U16] = {"uint16_t", "uint16_t", "u16", 2}, [TY_U32] = {"uint32_t", "uint32_t", "u32", 4},
    [TY_U64] = {"uint64_t", "uint64_t", "u64", 8}, [TY_F16] = {"uint16_t", NULL, "f16", 2},
    [TY_F32] = {"float", "float", "f32", 4},       [TY_F64] = {"double", "double", "f64", 8},
    [TY_C64] = {"float", NULL, "c64", 8},          [TY_C128] = {"double", NULL, "c128", 16},
};

static const CScalar *scalar_of(const Type *t) {
  return &scalars[t->kind == TY_ARRAY || t->kind == TY_PTR ? t->elem->kind : t->kind];
}

/* NAME_f32_2d */
static void array_type(StrBuf *sb, const Aot *a, const Type *t) {
  sb_printf(sb, "%s_%s_%dd", a->name, scalar_of(t)->code, t->ndim);
}

/* The C type of a launcher parameter. */
static void param_type(StrBuf *sb, const Aot *a, const Type *t) {
  if (t->kind == TY_ARRAY)
    array_type(sb, a, t);
  else if (t->kind == TY_PTR) /* a raw pointer: device memory on the GPU */
    sb_printf(sb, "%s *", scalar_of(t)->ctype);
  else
    sb_puts(sb, scalar_of(t)->param);
}

static void upper(StrBuf *sb, const char *s) {
  for (; *s; s++)
    sb_putc(sb, *s >= 'a' && *s <= 'z' ? (char)(*s - 32) : *s);
}

/* ---------------------------------------------------------- header --- */

/* One struct (and its C-contiguous constructor) per array type, in the
 * order the launchers first use them. */
static void header_arrays(StrBuf *sb, const Aot *a) {
  for (int i = 0; i < a->units.len; i++)
    for (int p = 0; p < a->units.data[i].nparams; p++) {
      const Type *t = a->units.data[i].types[p];
      bool seen = t->kind != TY_ARRAY;
      for (int k = 0; k <= i && !seen; k++)
        for (int q = 0; q < (k < i ? a->units.data[k].nparams : p) && !seen; q++) {
          const Type *u = a->units.data[k].types[q];
          seen = u->kind == TY_ARRAY && u->ndim == t->ndim && scalar_of(u) == scalar_of(t);
        }
      if (seen)
        continue;
      const CScalar *s = scalar_of(t);
      int n = t->ndim;
      sb_printf(sb, "/* %s arrays: data (device memory on the GPU), extents, strides in bytes. */\n"
                "typedef struct ", s->code);
      array_type(sb, a, t);
      sb_printf(sb, " { %s *data; int64_t shape[%d]; int64_t strides[%d]; } ", s->ctype, n, n);
      array_type(sb, a, t);
      sb_puts(sb, ";\n/* A C-contiguous one. */\nstatic inline ");
      array_type(sb, a, t);
      sb_putc(sb, ' ');
      array_type(sb, a, t);
      sb_printf(sb, "_c(%s *data", s->ctype);
      for (int d = 0; d < n; d++)
        sb_printf(sb, ", int64_t n%d", d);
      sb_puts(sb, ") {\n  ");
      array_type(sb, a, t);
      sb_puts(sb, " a;\n  a.data = data;\n");
      for (int d = 0; d < n; d++)
        sb_printf(sb, "  a.shape[%d] = n%d;\n", d, d);
      sb_printf(sb, "  a.strides[%d] = %d;\n", n - 1, s->itemsize);
      for (int d = n - 2; d >= 0; d--)
        sb_printf(sb, "  a.strides[%d] = a.strides[%d] * n%d;\n", d, d + 1, d + 1);
      sb_puts(sb, "  return a;\n}\n\n");
    }
}

/* NAME_kernel(const NAME_config *config, args...); a @vectorize
 * function's public launcher takes (void *stream, arrays...) and its kernel
 * launcher is the file's static aot_unit_<k>, as a reduction's kernels'. */
static void launcher_decl(StrBuf *sb, const Aot *a, const AotUnit *u, int k, bool inner) {
  if ((u->ufunc && inner) || u->reduce)
    sb_printf(sb, "static %s_status aot_unit_%d(const %s_config *config", a->name, k, a->name);
  else if (u->ufunc)
    sb_printf(sb, "%s_status %s_%s(void *stream", a->name, a->name, u->launcher);
  else
    sb_printf(sb, "%s_status %s_%s(const %s_config *config", a->name, a->name, u->launcher, a->name);
  for (int p = 0; p < u->nparams; p++) {
    sb_puts(sb, ", ");
    param_type(sb, a, u->types[p]);
    sb_printf(sb, " %s", u->names[p]);
  }
  sb_putc(sb, ')');
}

/* NAME_F(void *stream, NAME_<T>_1d array, T init, T *result) */
static void reduce_decl(StrBuf *sb, const Aot *a, const AotReduce *r) {
  const CScalar *s = scalar_of(r->array);
  sb_printf(sb, "%s_status %s_%s(void *stream, ", a->name, a->name, r->launcher);
  array_type(sb, a, r->array);
  sb_printf(sb, " array, %s init, %s *result)", s->param, s->ctype);
}

char *aot_write_header(const Aot *a, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  const char *n = a->name;
  sb_printf(&sb, "/* %s.h - kernels%s%s compiled ahead of time by kjit %s (`kjit aot`): typed\n"
            " * launchers that need no libkjit, no LLVM and no CUDA toolkit; the CUDA driver is\n"
            " * loaded when first needed.  Generated: do not edit.  See kjit's docs/aot.md. */\n",
            n, a->source_name ? " of " : "", a->source_name ? a->source_name : "", kjit_version());
  sb_puts(&sb, "#ifndef ");
  upper(&sb, n);
  sb_puts(&sb, "_H_INCLUDED\n#define ");
  upper(&sb, n);
  sb_puts(&sb, "_H_INCLUDED\n\n#include <stddef.h>\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  sb_printf(&sb,
            "/* What every call returns; %s_last_error() says more. */\n"
            "typedef enum %s_status {\n"
            "  %s_OK = 0,\n"
            "  %s_ERROR_ARGUMENT = 1,      /* an array's layout, a geometry or a pointer the kernel refuses */\n"
            "  %s_ERROR_NO_DEVICE = 2,     /* no CUDA driver or GPU (and no CPU code), or a target the library lacks */\n"
            "  %s_ERROR_NO_IMAGE = 3,      /* the GPU is older than every cubin and the PTX */\n"
            "  %s_ERROR_CUDA = 4,          /* the driver failed a call (the message names it) */\n"
            "  %s_ERROR_OUT_OF_MEMORY = 5,\n"
            "  %s_ERROR_LAUNCH = 6         /* CPU: a kernel's debug check or the executor failed */\n"
            "} %s_status;\n\n",
            n, n, n, n, n, n, n, n, n, n);
  sb_printf(&sb,
            "/* Where launches run.  AUTO (the default): the GPU when the CUDA driver loads and\n"
            " * sees a device, else the CPU code when the library has it. */\n"
            "typedef enum %s_target { %s_TARGET_AUTO = 0, %s_TARGET_CUDA = 1, %s_TARGET_CPU = 2 } %s_target;\n\n"
            "typedef struct %s_dim3 { uint32_t x, y, z; } %s_dim3;\n\n"
            "/* A launch: grid and block (every extent >= 1), dynamic shared memory in bytes,\n"
            " * and the CUstream to launch on (NULL: the default stream; the CPU ignores it). */\n"
            "typedef struct %s_config {\n  %s_dim3 grid, block;\n  size_t shared_bytes;\n  void *stream;\n} %s_config;\n\n",
            n, n, n, n, n, n, n, n, n, n);
  header_arrays(&sb, a);
  sb_printf(&sb,
            "/* Chooses the target of later calls (any thread; takes effect at the next call). */\n"
            "%s_status %s_select_target(%s_target target);\n"
            "/* The target calls run on now (AUTO resolved); %s_TARGET_AUTO when none can run. */\n"
            "%s_target %s_target_in_use(void);\n"
            "/* The calling thread's last failure, \"\" after a success.  Valid until its next call. */\n"
            "const char *%s_last_error(void);\n"
            "/* Memory the kernels read: device memory of the calling thread's CUDA context (device\n"
            " * 0's primary context, made current, when none is), or host memory on the CPU. */\n"
            "%s_status %s_malloc(void **ptr, size_t bytes);\n"
            "%s_status %s_free(void *ptr);\n"
            "/* Synchronous copies between host memory and the target's memory. */\n"
            "%s_status %s_copy_to_device(void *dst, const void *src, size_t bytes);\n"
            "%s_status %s_copy_to_host(void *dst, const void *src, size_t bytes);\n"
            "/* Waits for the stream (NULL: the whole context); the CPU's launches are synchronous. */\n"
            "%s_status %s_synchronize(void *stream);\n"
            "/* Unloads the modules of every context (when no launch is in flight); later\n"
            " * launches load them again. */\n"
            "%s_status %s_unload(void);\n\n",
            n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n);
  sb_puts(&sb, "/* The launchers: each checks the geometry and the arrays against its signature,\n"
               " * picks the variant a kjit launch would (32-bit offsets and grid indices where they\n"
               " * fit), and launches asynchronously on config->stream in the calling thread's context. */\n");
  for (int i = 0; i < a->reduces.len; i++) {
    const AotReduce *r = &a->reduces.data[i];
    char buf[64];
    sb_printf(&sb, "/* @cuda.reduce %s over %s: the elements and then init (give a neutral\n"
              " * value: 0 for a sum) folded with %s into *result (host memory).  The launches\n"
              " * and the copy of the value run on stream, which is then waited for; the GPU's\n"
              " * scratch is the library's (once per context; reductions there take turns). */\n",
              r->fn->name, ty_name(r->array, buf, sizeof buf), r->fn->name);
    reduce_decl(&sb, a, r);
    sb_puts(&sb, ";\n");
  }
  for (int i = 0; i < a->units.len; i++) {
    const AotUnit *u = &a->units.data[i];
    if (u->reduce)
      continue;
    if (u->ufunc)
      sb_printf(&sb, "/* %s: the @vectorize function over 1-d arrays of out's length (no\n"
                " * broadcasting)%s, a grid chosen as kjit_ufunc_call does */\n", u->signature,
                u->vec > 1 ? ", data 16-byte aligned" : "");
    else
      sb_printf(&sb, "/* %s */\n", u->signature);
    launcher_decl(&sb, a, u, i, false);
    sb_puts(&sb, ";\n");
  }
  sb_puts(&sb, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
  *len = sb.len;
  return sb_take(&sb);
}

/* ------------------------------------------------ device functions --- */

/* The CUDA C spelling of a C-ABI scalar (docs/cli.md, "Device functions
 * alone"): no <stdint.h>, so NVRTC takes the header as it is. */
static const char *cuda_c_type(const Type *t) {
  static const char *const names[] = {
      [TY_BOOL] = "bool", [TY_I8] = "signed char", [TY_I16] = "short", [TY_I32] = "int",
      [TY_I64] = "long long", [TY_U8] = "unsigned char", [TY_U16] = "unsigned short",
      [TY_U32] = "unsigned int", [TY_U64] = "unsigned long long", [TY_F32] = "float", [TY_F64] = "double"};
  if (!t || t->kind == TY_VOID)
    return "void";
  return t->kind < (int)(sizeof names / sizeof names[0]) && names[t->kind] ? names[t->kind] : "void";
}

char *aot_write_device_header(const Aot *a, const char *arch, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  const char *n = a->name;
  sb_printf(&sb, "/* %s.h - device functions%s%s compiled ahead of time by kjit %s (`kjit aot\n"
            " * --emit ptx`): their declarations for CUDA C.  %s.ptx (%s and newer) defines them\n"
            " * with the C ABI; link it as relocatable device code, e.g.\n"
            " *   nvcc -arch=%s -dc app.cu && nvcc -arch=%s -dc %s.ptx && nvcc -arch=%s app.o %s.o\n"
            " * or hand it to nvJitLink beside the program's own PTX or LTO-IR.  Generated: do\n"
            " * not edit.  See kjit's docs/aot.md. */\n",
            n, a->source_name ? " of " : "", a->source_name ? a->source_name : "", kjit_version(), n, arch, arch,
            arch, n, arch, n);
  sb_puts(&sb, "#ifndef ");
  upper(&sb, n);
  sb_puts(&sb, "_H_INCLUDED\n#define ");
  upper(&sb, n);
  sb_printf(&sb, "_H_INCLUDED\n\n#ifndef __CUDACC__\n#error \"%s.h declares CUDA device functions: include it from "
            "CUDA C (nvcc, NVRTC)\"\n#endif\n\n", n);
  for (int i = 0; i < a->units.len; i++) {
    const AotUnit *u = &a->units.data[i];
    char buf[64];
    sb_printf(&sb, "/* %s(", u->kernel);
    for (int p = 0; p < u->nparams; p++)
      sb_printf(&sb, "%s%s: %s", p ? ", " : "", u->names[p], ty_name(u->types[p], buf, sizeof buf));
    sb_printf(&sb, ") -> %s */\nextern \"C\" __device__ %s %s(", u->ret ? ty_name(u->ret, buf, sizeof buf) : "none",
              cuda_c_type(u->ret), u->kernel);
    for (int p = 0; p < u->nparams; p++)
      sb_printf(&sb, "%s%s %s", p ? ", " : "", cuda_c_type(u->types[p]), u->names[p]);
    sb_puts(&sb, u->nparams ? ");\n" : "void);\n");
  }
  sb_puts(&sb, "\n#endif\n");
  *len = sb.len;
  return sb_take(&sb);
}

/* ---------------------------------------------------------- source --- */

static void c_string_line(StrBuf *sb, const char *s, size_t n) {
  sb_puts(sb, "    \"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      sb_printf(sb, "\\%c", c);
    else if (c == '\t')
      sb_puts(sb, "\\t");
    else if (c < 32 || c > 126)
      sb_printf(sb, "\\%03o", c);
    else
      sb_putc(sb, (char)c);
  }
  sb_puts(sb, "\\n\"\n");
}

static void images(StrBuf *sb, const Aot *a) {
  for (int i = 0; i < a->images.len; i++) {
    const AotImage *m = &a->images.data[i];
    sb_printf(sb, "/* %s for sm_%d%s, variant %d */\nstatic const unsigned char aot_image_%d[%zu] "
              "__attribute__((aligned(16))) = {", m->is_ptx ? "PTX" : "cubin", m->sm, m->arch_specific ? "a" : "",
              m->variant, i, m->len);
    for (size_t k = 0; k < m->len; k++)
      sb_printf(sb, "%s%u%s", k % 20 ? "" : "\n  ", (unsigned char)m->data[k], k + 1 < m->len ? "," : "");
    sb_puts(sb, "};\n");
  }
  sb_printf(sb, "static const AotImage aot_images[AOT_NIMAGES] = {\n");
  for (int i = 0; i < a->images.len; i++) {
    const AotImage *m = &a->images.data[i];
    sb_printf(sb, "  {%d, %d, %d, %d, aot_image_%d, %zu},\n", m->sm, m->arch_specific, m->variant, m->is_ptx, i,
              m->len);
  }
  sb_puts(sb, "};\n\n");
}

/* A line of the host assembly (host_code drops .file, .loc and .ident: the
 * C compiler numbers its own files, and paths would make the output depend
 * on where the kernel file lies), with LLVM's local labels (.LBB0_1) given
 * the library's prefix, so they meet none of the C compiler's own. */
static void asm_line(StrBuf *sb, const Aot *a, const char *s, size_t n) {
  StrBuf line;
  sb_init(&line);
  for (size_t i = 0; i < n; i++) {
    bool start = i == 0 || !(s[i - 1] == '_' || s[i - 1] == '.' || s[i - 1] == '$' ||
                             (s[i - 1] >= '0' && s[i - 1] <= '9') || (s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
                             (s[i - 1] >= 'A' && s[i - 1] <= 'Z'));
    if (start && i + 2 < n && s[i] == '.' && s[i + 1] == 'L' && s[i + 2] != ' ') {
      sb_printf(&line, ".Lkjit_%s_", a->name);
      i++;
      continue;
    }
    sb_putc(&line, s[i]);
  }
  c_string_line(sb, line.data ? line.data : "", line.len);
  sb_free(&line);
}

static void host_code(StrBuf *sb, const Aot *a) {
  sb_puts(sb, "#if AOT_HAS_CPU\n/* The kernels as host code (kjit's CPU target, a portable CPU of this triple). */\n"
              "__asm__(\n    \".pushsection .text\\n\"\n");
  for (const char *s = a->host_asm; *s;) {
    size_t n = strcspn(s, "\n");
    const char *t = s + strspn(s, " \t");
    if (strncmp(t, ".file", 5) != 0 && strncmp(t, ".loc", 4) != 0 && strncmp(t, ".ident", 6) != 0)
      asm_line(sb, a, s, n);
    s += n + (s[n] == '\n');
  }
  sb_puts(sb, "    \".popsection\\n\");\n\n");
  for (int i = 0; i < a->units.len; i++)
    if (a->units.data[i].host_entry)
      sb_printf(sb, "void aot_host_%d(AotHostCtx *, void *) __asm__(\"%s\");\n", i, a->units.data[i].host_entry);
  sb_puts(sb, "#endif\n\n");
}

/* The public calls over the run time's. */
static void api_functions(StrBuf *sb, const Aot *a) {
  const char *n = a->name;
  sb_printf(sb,
            "%s_status %s_select_target(%s_target target) { return (%s_status)aot_set_target((int)target); }\n"
            "%s_target %s_target_in_use(void) {\n  int t = 0;\n  return aot_target(&t) == AOT_OK ? (%s_target)t : "
            "%s_TARGET_AUTO;\n}\n"
            "const char *%s_last_error(void) { return aot_msg; }\n"
            "%s_status %s_malloc(void **ptr, size_t bytes) { return (%s_status)aot_malloc(ptr, bytes); }\n"
            "%s_status %s_free(void *ptr) { return (%s_status)aot_free(ptr); }\n"
            "%s_status %s_copy_to_device(void *dst, const void *src, size_t bytes) {\n"
            "  return (%s_status)aot_copy(dst, src, bytes, 1);\n}\n"
            "%s_status %s_copy_to_host(void *dst, const void *src, size_t bytes) {\n"
            "  return (%s_status)aot_copy(dst, src, bytes, 0);\n}\n"
            "%s_status %s_synchronize(void *stream) { return (%s_status)aot_synchronize(stream); }\n"
            "%s_status %s_unload(void) { return (%s_status)aot_unload(); }\n\n",
            n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n);
}

static void launcher(StrBuf *sb, const Aot *a, int k) {
  const AotUnit *u = &a->units.data[k];
  int narrays = 0;
  for (int p = 0; p < u->nparams; p++)
    narrays += u->types[p]->kind == TY_ARRAY;
  sb_printf(sb, "/* %s */\n", u->signature);
  launcher_decl(sb, a, u, k, true);
  sb_printf(sb, " {\n  static const char aot_kernel[] = \"%s\";\n", u->kernel);
  sb_printf(sb, "  uint32_t aot_g[3], aot_b[3];\n  int aot_st, aot_t = 0, aot_fits = 1%s;\n", narrays ? ", aot_r" : "");
  sb_printf(sb, "  if (!config)\n    return (%s_status)aot_fail(AOT_E_ARGUMENT, \"%%s: no launch configuration\", "
            "aot_kernel);\n", a->name);
  sb_puts(sb, "  aot_g[0] = config->grid.x, aot_g[1] = config->grid.y, aot_g[2] = config->grid.z;\n"
              "  aot_b[0] = config->block.x, aot_b[1] = config->block.y, aot_b[2] = config->block.z;\n");
  sb_printf(sb, "  if ((aot_st = aot_target(&aot_t)) != AOT_OK)\n    return (%s_status)aot_st;\n"
            "  if (!aot_geometry_ok(aot_g, aot_b))\n    return (%s_status)aot_geometry_error(aot_kernel, aot_g, aot_b);\n",
            a->name, a->name);
  /* Each array checked inline with its signature's constants; the message
   * only when it is refused. */
  for (int p = 0; p < u->nparams; p++) {
    const Type *t = u->types[p];
    if (t->kind != TY_ARRAY)
      continue;
    const char *v = u->names[p];
    int item = scalar_of(t)->itemsize, c = t->layout == LAYOUT_C;
    sb_printf(sb, "  if ((aot_r = aot_array_ok(%s.data, %s.shape, %s.strides, %d, %d, %d)) < 0)\n"
              "    return (%s_status)aot_array_error(aot_kernel, \"%s\", %s.data, %s.shape, %s.strides, %d, %d, %d);\n"
              "  aot_fits &= aot_r;\n", v, v, v, t->ndim, item, c, a->name, v, v, v, v, t->ndim, item, c);
  }
  for (int p = 0; p < u->nparams; p++)
    if (u->types[p]->kind == TY_BOOL)
      sb_printf(sb, "  uint8_t aot_p%d = %s != 0;\n", p, u->names[p]);
  if (a->cuda && u->has_cuda) {
    sb_puts(sb, "#if AOT_HAS_CUDA\n  if (aot_t == AOT_CUDA) {\n");
    sb_printf(sb, "    void *aot_args[%d] = {", u->nparams ? u->nparams : 1);
    for (int p = 0; p < u->nparams; p++)
      if (u->types[p]->kind == TY_BOOL)
        sb_printf(sb, "%s&aot_p%d", p ? ", " : "", p);
      else
        sb_printf(sb, "%s&%s", p ? ", " : "", u->names[p]);
    sb_printf(sb, "%s};\n    return (%s_status)aot_cu_launch(%d, aot_fits | aot_grid32(aot_g, aot_b) << 1, aot_g, "
              "aot_b, config->shared_bytes, config->stream, aot_args);\n  }\n#endif\n",
              u->nparams ? "" : "NULL", a->name, k);
  }
  if (a->cpu && u->host_entry) {
    sb_puts(sb, "#if AOT_HAS_CPU\n  if (aot_t == AOT_CPU) {\n    struct {\n");
    for (int p = 0; p < u->nparams; p++) {
      sb_puts(sb, "      ");
      if (u->types[p]->kind == TY_BOOL)
        sb_puts(sb, "uint8_t");
      else
        param_type(sb, a, u->types[p]);
      sb_printf(sb, " p%d;\n", p);
    }
    if (!u->nparams)
      sb_puts(sb, "      char none;\n");
    sb_puts(sb, "    } aot_pack;\n");
    if (!u->nparams)
      sb_puts(sb, "    aot_pack.none = 0;\n");
    for (int p = 0; p < u->nparams; p++)
      if (u->types[p]->kind == TY_BOOL)
        sb_printf(sb, "    aot_pack.p%d = aot_p%d;\n", p, p);
      else
        sb_printf(sb, "    aot_pack.p%d = %s;\n", p, u->names[p]);
    sb_printf(sb, "    return (%s_status)aot_host_launch(aot_kernel, aot_host_%d, %d, %zu, aot_g, aot_b, "
              "config->shared_bytes, &aot_pack);\n  }\n#endif\n", a->name, k, u->host_flags, u->host_static_shared);
  }
  sb_printf(sb, "  (void)aot_fits;\n  return (%s_status)aot_fail(AOT_E_NO_DEVICE, \"%%s: the library has no code for "
            "this target\", aot_kernel);\n}\n\n", a->name);
}

/* A @vectorize function's launcher: every array of out's length (and
 * 16-byte aligned for a kernel of vector loads), then BLOCK-thread blocks
 * each taking BLOCK groups of vec elements, as kjit_ufunc_call launches the
 * contiguous kernel (api/ufunc.c). */
static void ufunc_launcher(StrBuf *sb, const Aot *a, int k) {
  const AotUnit *u = &a->units.data[k];
  const char *out = u->names[u->nparams - 1];
  launcher_decl(sb, a, u, k, false);
  sb_printf(sb, " {\n  static const char aot_kernel[] = \"%s\";\n  %s_config aot_c;\n  int64_t aot_blocks;\n",
            u->kernel, a->name);
  for (int p = 0; p < u->nparams; p++) {
    const char *v = u->names[p];
    if (p < u->nparams - 1)
      sb_printf(sb, "  if (%s.shape[0] != %s.shape[0])\n    return (%s_status)aot_fail(AOT_E_ARGUMENT, \"%%s: argument "
              "'%s' has %%lld elements and '%s' %%lld; generated launchers do not broadcast\", aot_kernel, "
              "(long long)%s.shape[0], (long long)%s.shape[0]);\n", v, out, a->name, v, out, v, out);
    if (u->vec > 1)
      sb_printf(sb, "  if ((uintptr_t)%s.data & 15u)\n    return (%s_status)aot_fail(AOT_E_ARGUMENT, \"%%s: argument "
                "'%s' is not 16-byte aligned (the kernel loads %d elements at once)\", aot_kernel);\n", v, a->name, v,
                u->vec);
  }
  sb_printf(sb, "  if (%s.shape[0] == 0)\n    return (%s_status)aot_ok();\n", out, a->name);
  sb_printf(sb, "  aot_blocks = ((%s.shape[0] + %d) / %d + 255) / 256;\n", out, u->vec - 1, u->vec);
  sb_puts(sb, "  memset(&aot_c, 0, sizeof aot_c);\n"
              "  aot_c.grid.x = (uint32_t)(aot_blocks > 2147483647 ? 2147483647 : aot_blocks);\n"
              "  aot_c.grid.y = aot_c.grid.z = aot_c.block.y = aot_c.block.z = 1;\n"
              "  aot_c.block.x = 256;\n  aot_c.stream = stream;\n");
  sb_printf(sb, "  return aot_unit_%d(&aot_c", k);
  for (int p = 0; p < u->nparams; p++)
    sb_printf(sb, ", %s", u->names[p]);
  sb_puts(sb, ");\n}\n\n");
}

/* A reduction's launcher, as kjit_reduce runs it (api/reduce.c).  CUDA:
 * one 1024-thread block straight into the value for up to 8192 elements,
 * else min(ceil(n/256), 1024) 256-thread blocks into partials, then one
 * block over them; the scratch is the context's (aot_cu_scratch).  CPU:
 * chunks of max(ceil(n/256), 16384) elements folded in parallel into
 * partials, then folded in order. */
static void reduce_launcher(StrBuf *sb, const Aot *a, const AotReduce *r) {
  const CScalar *s = scalar_of(r->array);
  StrBuf t;
  sb_init(&t);
  array_type(&t, a, r->array);
  reduce_decl(sb, a, r);
  sb_printf(sb, " {\n  static const char aot_kernel[] = \"%s\";\n  %s_config aot_c;\n  int aot_st, aot_t = 0;\n"
            "  int64_t aot_n = array.shape[0];\n", r->fn->name, a->name);
  sb_printf(sb, "  if (!result)\n    return (%s_status)aot_fail(AOT_E_ARGUMENT, \"%%s: no result pointer\", aot_kernel);\n"
            "  if ((aot_st = aot_target(&aot_t)) != AOT_OK)\n    return (%s_status)aot_st;\n", a->name, a->name);
  sb_puts(sb, "  memset(&aot_c, 0, sizeof aot_c);\n"
              "  aot_c.grid.x = aot_c.grid.y = aot_c.grid.z = aot_c.block.x = aot_c.block.y = aot_c.block.z = 1;\n"
              "  aot_c.stream = stream;\n  (void)aot_n;\n");
  if (r->cuda_unit >= 0)
    sb_printf(sb, "#if AOT_HAS_CUDA\n  if (aot_t == AOT_CUDA) {\n    AotCuModule *aot_m;\n    char *aot_s;\n"
              "    int64_t aot_nb = aot_n <= 8192 ? 0 : (aot_n + 255) / 256 > 1024 ? 1024 : (aot_n + 255) / 256;\n"
              "    %s aot_part, aot_out;\n"
              "    if ((aot_st = aot_cu_scratch(&aot_m, &aot_s)) != AOT_OK)\n      return (%s_status)aot_st;\n"
              "    aot_part = %s_c((%s *)(void *)aot_s, aot_nb);\n"
              "    aot_out = %s_c((%s *)(void *)(aot_s + AOT_SCRATCH_PART), 1);\n"
              "    if (aot_nb) {\n      aot_c.grid.x = (uint32_t)aot_nb, aot_c.block.x = 256;\n"
              "      aot_st = aot_unit_%d(&aot_c, array, aot_part, init, 0);\n      array = aot_part;\n    }\n"
              "    aot_c.grid.x = 1, aot_c.block.x = 1024;\n"
              "    if (aot_st == AOT_OK)\n      aot_st = aot_unit_%d(&aot_c, array, aot_out, init, 1);\n"
              "    return (%s_status)aot_cu_scratch_end(aot_m, aot_st, result, aot_out.data, sizeof *result, stream);\n"
              "  }\n#endif\n", t.data, a->name, t.data, s->ctype, t.data, s->ctype, r->cuda_unit, r->cuda_unit,
              a->name);
  if (r->cpu_unit >= 0)
    sb_printf(sb, "#if AOT_HAS_CPU\n  if (aot_t == AOT_CPU) {\n"
              "    int64_t aot_chunk = (aot_n + 255) / 256, aot_nparts;\n    %s aot_res = %s_c(result, 1), aot_part;\n"
              "    if (aot_chunk < 16384)\n      aot_chunk = 16384;\n"
              "    if (aot_n <= aot_chunk)\n      return aot_unit_%d(&aot_c, array, aot_res, init, 1, aot_n);\n"
              "    aot_nparts = (aot_n + aot_chunk - 1) / aot_chunk;\n"
              "    aot_part = %s_c((%s *)malloc((size_t)aot_nparts * sizeof *result), aot_nparts);\n"
              "    if (!aot_part.data)\n      return (%s_status)aot_fail(AOT_E_NOMEM, \"%%s: out of host memory\", aot_kernel);\n"
              "    aot_c.grid.x = (uint32_t)aot_nparts;\n"
              "    aot_st = aot_unit_%d(&aot_c, array, aot_part, init, 0, aot_chunk);\n    aot_c.grid.x = 1;\n"
              "    if (aot_st == AOT_OK)\n      aot_st = aot_unit_%d(&aot_c, aot_part, aot_res, init, 1, aot_nparts);\n"
              "    free(aot_part.data);\n    return (%s_status)aot_st;\n  }\n#endif\n",
              t.data, t.data, r->cpu_unit, t.data, s->ctype, a->name, r->cpu_unit, r->cpu_unit, a->name);
  sb_printf(sb, "  (void)init;\n  return (%s_status)aot_fail(AOT_E_NO_DEVICE, \"%%s: the library has no code for "
            "this target\", aot_kernel);\n}\n\n", a->name);
  sb_free(&t);
}

char *aot_write_source(const Aot *a, size_t *len) {
  StrBuf sb;
  sb_init(&sb);
  sb_printf(&sb, "/* %s.c - generated by kjit %s (`kjit aot`) from %s: do not edit.\n"
            " * Build: cc -c %s.c (C11 or C++); link with -ldl -lpthread (and -lm for CPU code). */\n",
            a->name, kjit_version(), a->source_name ? a->source_name : "a kernel file", a->name);
  sb_puts(&sb, aot_runtime_prelude);
  sb_printf(&sb, "#include \"%s.h\"\n\n#define AOT_HAS_CUDA %d\n", a->name, a->cuda && a->images.len);
  if (a->cpu && a->host_arch)
    sb_printf(&sb, "#if %s\n#define AOT_HAS_CPU 1\n#else\n#define AOT_HAS_CPU 0\n#endif\n", a->host_arch);
  else
    sb_puts(&sb, "#define AOT_HAS_CPU 0\n");
  sb_printf(&sb, "#define AOT_NFUNCS %d\n#define AOT_NIMAGES %d\n#define AOT_ARCH_LIST \"%s\"\n\n", a->units.len,
            a->images.len ? a->images.len : 1, a->arch_list ? a->arch_list : "no GPU code");
  sb_puts(&sb, "static const char *const aot_func_names[AOT_NFUNCS] AOT_UNUSED = {\n");
  for (int i = 0; i < a->units.len; i++)
    sb_printf(&sb, "  \"%s\",\n", a->units.data[i].symbol);
  sb_puts(&sb, "};\n\n#if AOT_HAS_CUDA\n");
  images(&sb, a);
  sb_puts(&sb, "#endif\n\n");
  sb_puts(&sb, aot_runtime_body);
  sb_putc(&sb, '\n');
  if (a->cpu && a->host_asm)
    host_code(&sb, a);
  api_functions(&sb, a);
  for (int i = 0; i < a->units.len; i++) {
    launcher(&sb, a, i);
    if (a->units.data[i].ufunc)
      ufunc_launcher(&sb, a, i);
  }
  for (int i = 0; i < a->reduces.len; i++)
    reduce_launcher(&sb, a, &a->reduces.data[i]);
  *len = sb.len;
  return sb_take(&sb);
}
