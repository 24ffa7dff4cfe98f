/* test_dlpack_abi.c - the DLPack struct layouts of include/kjit_dlpack.h
 * are a public ABI: every field's offset and size pinned for x86-64 LP64
 * (the numbers are DLPack's, written here independently of any header),
 * and, where the system has a dlpack.h (Debian's libdlpack-dev: the 0.x
 * header), kjit's declarations checked field by field against it.  Exit 1
 * on any difference. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kjit.h"

#include "check.h"

#if defined(__has_include)
#if __has_include(<dlpack/dlpack.h>)
#include <dlpack/dlpack.h>
#define HAVE_SYSTEM_DLPACK 1
#endif
#endif

#define PIN(type, field, off, size)                                                         \
  CHECK(offsetof(type, field) == (off) && sizeof(((type *)0)->field) == (size),             \
        #type "." #field ": offset %zu size %zu, pinned %d and %d", offsetof(type, field),  \
        sizeof(((type *)0)->field), (off), (size))

static void pin_layouts(void) {
  CHECK(sizeof(kjit_dl_device) == 8 && sizeof(kjit_dl_dtype) == 4);
  PIN(kjit_dl_device, device_type, 0, 4);
  PIN(kjit_dl_device, device_id, 4, 4);
  PIN(kjit_dl_dtype, code, 0, 1);
  PIN(kjit_dl_dtype, bits, 1, 1);
  PIN(kjit_dl_dtype, lanes, 2, 2);
  CHECK(sizeof(kjit_dl_tensor) == 48);
  PIN(kjit_dl_tensor, data, 0, 8);
  PIN(kjit_dl_tensor, device, 8, 8);
  PIN(kjit_dl_tensor, ndim, 16, 4);
  PIN(kjit_dl_tensor, dtype, 20, 4);
  PIN(kjit_dl_tensor, shape, 24, 8);
  PIN(kjit_dl_tensor, strides, 32, 8);
  PIN(kjit_dl_tensor, byte_offset, 40, 8);
  CHECK(sizeof(kjit_dl_managed_tensor) == 64);
  PIN(kjit_dl_managed_tensor, dl_tensor, 0, 48);
  PIN(kjit_dl_managed_tensor, manager_ctx, 48, 8);
  PIN(kjit_dl_managed_tensor, deleter, 56, 8);
  CHECK(sizeof(kjit_dl_version) == 8);
  PIN(kjit_dl_version, major, 0, 4);
  PIN(kjit_dl_version, minor, 4, 4);
  CHECK(sizeof(kjit_dl_managed_tensor_versioned) == 80);
  PIN(kjit_dl_managed_tensor_versioned, version, 0, 8);
  PIN(kjit_dl_managed_tensor_versioned, manager_ctx, 8, 8);
  PIN(kjit_dl_managed_tensor_versioned, deleter, 16, 8);
  PIN(kjit_dl_managed_tensor_versioned, flags, 24, 8);
  PIN(kjit_dl_managed_tensor_versioned, dl_tensor, 32, 48);
  /* DLPack's enum values and flag bits */
  CHECK(KJIT_DL_CPU == 1 && KJIT_DL_CUDA == 2 && KJIT_DL_CUDA_HOST == 3 &&
        KJIT_DL_CUDA_MANAGED == 13);
  CHECK(KJIT_DL_INT == 0 && KJIT_DL_UINT == 1 && KJIT_DL_FLOAT == 2 && KJIT_DL_OPAQUE_HANDLE == 3 &&
        KJIT_DL_BFLOAT == 4 && KJIT_DL_COMPLEX == 5 && KJIT_DL_BOOL == 6);
  CHECK(KJIT_DL_FLAG_READ_ONLY == 1 && KJIT_DL_FLAG_IS_COPIED == 2 && KJIT_DL_MAJOR_VERSION == 1);
}

#ifdef HAVE_SYSTEM_DLPACK
#define SAME(kt, dt, kf, df)                                                                 \
  CHECK(offsetof(kt, kf) == offsetof(dt, df) && sizeof(((kt *)0)->kf) == sizeof(((dt *)0)->df), \
        #kt "." #kf " differs from dlpack.h's " #dt "." #df)

/* Debian's dlpack.h is 0.x: DLManagedTensor and what it holds. */
static void against_system_header(void) {
  CHECK(sizeof(kjit_dl_device) == sizeof(DLDevice) && sizeof(kjit_dl_dtype) == sizeof(DLDataType));
  SAME(kjit_dl_device, DLDevice, device_type, device_type);
  SAME(kjit_dl_device, DLDevice, device_id, device_id);
  SAME(kjit_dl_dtype, DLDataType, code, code);
  SAME(kjit_dl_dtype, DLDataType, bits, bits);
  SAME(kjit_dl_dtype, DLDataType, lanes, lanes);
  CHECK(sizeof(kjit_dl_tensor) == sizeof(DLTensor));
  SAME(kjit_dl_tensor, DLTensor, data, data);
  SAME(kjit_dl_tensor, DLTensor, device, device);
  SAME(kjit_dl_tensor, DLTensor, ndim, ndim);
  SAME(kjit_dl_tensor, DLTensor, dtype, dtype);
  SAME(kjit_dl_tensor, DLTensor, shape, shape);
  SAME(kjit_dl_tensor, DLTensor, strides, strides);
  SAME(kjit_dl_tensor, DLTensor, byte_offset, byte_offset);
  CHECK(sizeof(kjit_dl_managed_tensor) == sizeof(DLManagedTensor));
  SAME(kjit_dl_managed_tensor, DLManagedTensor, dl_tensor, dl_tensor);
  SAME(kjit_dl_managed_tensor, DLManagedTensor, manager_ctx, manager_ctx);
  SAME(kjit_dl_managed_tensor, DLManagedTensor, deleter, deleter);
  CHECK((int)KJIT_DL_CPU == (int)kDLCPU && (int)KJIT_DL_CUDA == (int)kDLCUDA &&
        (int)KJIT_DL_CUDA_HOST == (int)kDLCUDAHost && (int)KJIT_DL_CUDA_MANAGED == (int)kDLCUDAManaged);
  CHECK((int)KJIT_DL_INT == (int)kDLInt && (int)KJIT_DL_UINT == (int)kDLUInt &&
        (int)KJIT_DL_FLOAT == (int)kDLFloat && (int)KJIT_DL_OPAQUE_HANDLE == (int)kDLOpaqueHandle &&
        (int)KJIT_DL_BFLOAT == (int)kDLBfloat && (int)KJIT_DL_COMPLEX == (int)kDLComplex);
#ifdef DLPACK_MAJOR_VERSION /* a 1.x header: the versioned layout too */
  CHECK((int)KJIT_DL_BOOL == (int)kDLBool && KJIT_DL_MAJOR_VERSION == DLPACK_MAJOR_VERSION);
  CHECK(KJIT_DL_FLAG_READ_ONLY == DLPACK_FLAG_BITMASK_READ_ONLY &&
        KJIT_DL_FLAG_IS_COPIED == DLPACK_FLAG_BITMASK_IS_COPIED);
  CHECK(sizeof(kjit_dl_managed_tensor_versioned) == sizeof(DLManagedTensorVersioned));
  SAME(kjit_dl_managed_tensor_versioned, DLManagedTensorVersioned, version, version);
  SAME(kjit_dl_managed_tensor_versioned, DLManagedTensorVersioned, manager_ctx, manager_ctx);
  SAME(kjit_dl_managed_tensor_versioned, DLManagedTensorVersioned, deleter, deleter);
  SAME(kjit_dl_managed_tensor_versioned, DLManagedTensorVersioned, flags, flags);
  SAME(kjit_dl_managed_tensor_versioned, DLManagedTensorVersioned, dl_tensor, dl_tensor);
#endif
}
#endif

int main(void) {
  pin_layouts();
#ifdef HAVE_SYSTEM_DLPACK
  against_system_header();
  printf("test_dlpack_abi: checked against the system's dlpack.h (DLPACK_VERSION %d)\n",
#ifdef DLPACK_VERSION
         DLPACK_VERSION
#else
         DLPACK_MAJOR_VERSION * 100 + DLPACK_MINOR_VERSION
#endif
  );
#else
  printf("test_dlpack_abi: no system dlpack.h (libdlpack-dev): pinned offsets only\n");
#endif
  printf("test_dlpack_abi: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
