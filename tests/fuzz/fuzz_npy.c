/* fuzz_npy.c - libFuzzer target: the .npy reader on arbitrary bytes.
 *
 * The input is read through rt_npy_read_stream from a memory stream
 * (fmemopen), the same code path rt_npy_read uses for files.  Every input
 * either yields an array or an RT_NPY_E_* code with a message; an array
 * read back is written out again to exercise the writer on what the reader
 * accepted. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  FILE *f = fmemopen((void *)data, size, "rb");
  if (!f)
    return 0;
  RtArray a;
  char err[512];
  int rc = rt_npy_read_stream(f, "<fuzz>", &a, err, sizeof err);
  fclose(f);
  if (rc != RT_NPY_OK) {
    if (!err[0])
      abort(); /* every failure must say why */
    return 0;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *w = open_memstream(&buf, &len);
  if (w) {
    rt_npy_write_stream(w, "<fuzz-out>", &a, err, sizeof err);
    fclose(w);
  }
  free(buf);
  rt_array_free(&a);
  return 0;
}
