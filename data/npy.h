/* npy.h - NumPy .npy files (format versions 1.0, 2.0, 3.0) to and from
 * RtArray.
 *
 * Reading accepts every dtype kjit supports in either byte order (swapped
 * to native), C or Fortran order (a Fortran file becomes a strided view:
 * same shape, Fortran strides, never transposed), 0-d and empty arrays, and
 * rejects anything else with a message naming the file.  Writing produces
 * version 1.0 (2.0 when the header needs it), C order, native byte order,
 * through a temporary file renamed into place, so a failed write leaves no
 * file behind. */
#ifndef KJIT_RUNTIME_NPY_H
#define KJIT_RUNTIME_NPY_H

#include <stdio.h>

#include "common/file.h"
#include "data/array.h"

enum {
  RT_NPY_OK = 0,
  RT_NPY_E_IO = 1,        /* cannot open/read/write the file */
  RT_NPY_E_FORMAT = 2,    /* bad magic, version, header, truncated data */
  RT_NPY_E_DTYPE = 3,     /* a dtype kjit does not support */
  RT_NPY_E_SHAPE = 4,     /* too many dimensions, size overflow */
  RT_NPY_E_NOMEM = 5,
};

/* Reads `path` into *out (an owned array, free with rt_array_free).
 * Returns RT_NPY_OK or an RT_NPY_E_* code with "PATH: what is wrong" in err;
 * *out is zeroed on error. */
int rt_npy_read(const char *path, RtArray *out, char *err, size_t errlen);
/* The same from an open stream; `name` is used in messages only. */
int rt_npy_read_stream(FILE *f, const char *name, RtArray *out, char *err, size_t errlen);

/* Writes `a` (any strides) to `path` by the rules of common/file.h
 * (through a link to a regular file, never over a device or FIFO, owner
 * and mode kept, atomically by rename).  Returns RT_NPY_OK or an
 * RT_NPY_E_* code + err. */
int rt_npy_write(const char *path, const RtArray *a, char *err, size_t errlen);
/* Writes n arrays, all or none: every file is written to its temporary
 * first, and only when all are complete are they renamed into place.  Two
 * paths that lead to one file are refused. */
int rt_npy_write_all(const char *const *paths, const RtArray *const *arrays, int n, char *err, size_t errlen);
/* Writes the whole .npy image to a stream (no atomicity). */
int rt_npy_write_stream(FILE *f, const char *name, const RtArray *a, char *err, size_t errlen);

#endif
