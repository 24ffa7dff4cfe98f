/* kjit_dlpack.h - DLPack's structs, as kjit reads and writes them.
 *
 * DLPack (https://dmlc.github.io/dlpack) is the C-level exchange format of
 * tensors between frameworks (PyTorch, CuPy, JAX, NumPy, Numba).  Its
 * layouts are an ABI: this header declares them under kjit's own names, so
 * a program may include it together with any dlpack.h, and a pointer to
 * DLPack's DLManagedTensor / DLManagedTensorVersioned is passed to kjit
 * with a cast.  tests/dlpack/ pins every field's offset and size (x86-64
 * LP64) and checks them against the system's dlpack.h where one is
 * installed.  Two layouts:
 *   - kjit_dl_managed_tensor: DLPack 0.x's DLManagedTensor (no version, no
 *     flags);
 *   - kjit_dl_managed_tensor_versioned: DLPack 1.x's
 *     DLManagedTensorVersioned (version first, then flags with the
 *     read-only and is-copied bits).
 * The functions that take and make them are in kjit.h ("DLPack"). */
#ifndef KJIT_DLPACK_H
#define KJIT_DLPACK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DLDeviceType: the device types kjit takes (DLPack knows more; any other
 * value is refused by name or number). */
enum {
  KJIT_DL_CPU = 1,           /* kDLCPU: host memory */
  KJIT_DL_CUDA = 2,          /* kDLCUDA: device memory of one GPU */
  KJIT_DL_CUDA_HOST = 3,     /* kDLCUDAHost: pinned host memory */
  KJIT_DL_CUDA_MANAGED = 13, /* kDLCUDAManaged: unified (managed) memory */
};

/* DLDataTypeCode: kjit takes int, uint, float, complex and bool. */
enum {
  KJIT_DL_INT = 0,           /* kDLInt: bits 8, 16, 32, 64 */
  KJIT_DL_UINT = 1,          /* kDLUInt: bits 8, 16, 32, 64 (uint8 is not bool) */
  KJIT_DL_FLOAT = 2,         /* kDLFloat: bits 16, 32, 64 */
  KJIT_DL_OPAQUE_HANDLE = 3, /* kDLOpaqueHandle: refused */
  KJIT_DL_BFLOAT = 4,        /* kDLBfloat: refused (no kjit array dtype) */
  KJIT_DL_COMPLEX = 5,       /* kDLComplex: bits 64, 128 */
  KJIT_DL_BOOL = 6,          /* kDLBool: bits 8 */
};

/* DLManagedTensorVersioned.flags */
#define KJIT_DL_FLAG_READ_ONLY ((uint64_t)1 << 0) /* DLPACK_FLAG_BITMASK_READ_ONLY */
#define KJIT_DL_FLAG_IS_COPIED ((uint64_t)1 << 1) /* DLPACK_FLAG_BITMASK_IS_COPIED */

/* The DLPack major version kjit reads and writes (DLPACK_MAJOR_VERSION),
 * and the minor version its exports carry. */
#define KJIT_DL_MAJOR_VERSION 1
#define KJIT_DL_MINOR_VERSION 0

typedef struct kjit_dl_device {  /* DLDevice, 8 bytes */
  int32_t device_type;           /* a KJIT_DL_* device type (DLDeviceType) */
  int32_t device_id;             /* the CUDA device ordinal; 0 for the CPU */
} kjit_dl_device;

typedef struct kjit_dl_dtype {   /* DLDataType, 4 bytes */
  uint8_t code;                  /* a KJIT_DL_* type code */
  uint8_t bits;                  /* bits of one lane */
  uint16_t lanes;                /* vector lanes: kjit takes 1 */
} kjit_dl_dtype;

typedef struct kjit_dl_tensor {  /* DLTensor, 48 bytes */
  void *data;                    /* host pointer, or a CUdeviceptr */
  kjit_dl_device device;
  int32_t ndim;
  kjit_dl_dtype dtype;
  int64_t *shape;                /* ndim entries */
  int64_t *strides;              /* ndim entries, in ELEMENTS; NULL = C order */
  uint64_t byte_offset;          /* the first element is at data + byte_offset */
} kjit_dl_tensor;

typedef struct kjit_dl_managed_tensor { /* DLManagedTensor (0.x), 64 bytes */
  kjit_dl_tensor dl_tensor;
  void *manager_ctx;             /* the producer's */
  void (*deleter)(struct kjit_dl_managed_tensor *self); /* may be NULL */
} kjit_dl_managed_tensor;

typedef struct kjit_dl_version { /* DLPackVersion, 8 bytes */
  uint32_t major;
  uint32_t minor;
} kjit_dl_version;

typedef struct kjit_dl_managed_tensor_versioned { /* DLManagedTensorVersioned (1.x), 80 bytes */
  kjit_dl_version version;
  void *manager_ctx;             /* the producer's */
  void (*deleter)(struct kjit_dl_managed_tensor_versioned *self); /* may be NULL */
  uint64_t flags;                /* KJIT_DL_FLAG_* */
  kjit_dl_tensor dl_tensor;
} kjit_dl_managed_tensor_versioned;

#ifdef __cplusplus
}
#endif

#endif
