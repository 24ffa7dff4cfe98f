/* kjitaux.h - libkjitaux, the auxiliary library of kjit: what the `kjit run`
 * command line needs around the compiler API, for any program that wants
 * the same conveniences (as Lua's lauxlib stands beside lua.h).
 *
 *   - the argument VALUE language of `kjit run` (docs/cli.md): texts such as
 *     "arange:float32:1024", "zeros:i4:64x64", "x.npy", "float32:2.5", "3",
 *     "(1, 2.5)" or "Point(x=1.5, y=2.5)" parsed into a kjit_arg;
 *   - the one-line array summaries `kjit run` prints ("float32[1024] [0, 1,
 *     2, ..., 1023] sum=523776 crc=0ffedd55").
 *
 * Everything here is written against include/kjit.h alone (auxlib/ includes
 * nothing else of kjit's), so it shows how a client builds such tools; link
 * with libkjitaux.a and libkjit.  The conventions of kjit.h hold: each call
 * returns a kjit_status, results come back through out-parameters written
 * only on success, and errors are described by kjit_last_error(ctx) (set
 * through kjit_set_error).  Thread-safety is that of the kjit.h calls made:
 * a call takes its context's lock for each of them, so distinct contexts
 * may be used from distinct threads at once. */
#ifndef KJITAUX_H
#define KJITAUX_H

#include "kjit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses one VALUE as `kjit run` takes it (docs/cli.md):
 *   PATH.npy                      an array read from the file
 *                                 (kjit_array_load_npy)
 *   zeros:DTYPE:SHAPE  full:DTYPE:SHAPE:V  arange:DTYPE:SHAPE
 *   rand:DTYPE:SHAPE[:SEED]  randint:DTYPE:SHAPE:LO:HI[:SEED]
 *   xoroshiro:N:SEED[:SUBSEQ]     numba.cuda.random states, as
 *                                 kjit_array_xoroshiro128p makes them
 *   zeros:DESCR[:SHAPE]  arange:DESCR[:SHAPE]
 *                                 an array of records of the structured
 *                                 dtype DESCR (as kjit_array_create_record
 *                                 takes it); arange sets every number field
 *                                 of element i to i; no SHAPE: one record
 *   DTYPE:V                       a typed scalar (float32:2.5)
 *   a bare number                 int -> KJIT_ARG_INT64, float -> FLOAT64
 *   (V, V, ...)                   a tuple (KJIT_ARG_TUPLE) of bare numbers,
 *                                 True/False, DTYPE:V, arrays (VALUEs above;
 *                                 they belong to ctx) or nested tuples:
 *                                 "(1, 2.5)", "(zeros:f32:4, (2, True))",
 *                                 "()", "(1,)" ((1) is 1, as in Python)
 *   NAME(V, ..., KEY=V, ...)      a namedtuple instance of class NAME of the
 *                                 kernel file: "Point(1.5, 2.5)",
 *                                 "Point(x=1.5, y=2.5)" (tuple.name, keys)
 * DTYPE is a name kjit_dtype_from_name knows; SHAPE is N, AxB, AxBxC or
 * AxBxCxD.  rand fills floats uniformly in [0, 1), ints with 0..99, bools
 * with 0/1; randint LO <= v < HI; both from splitmix64 seeded with SEED
 * (default 0) mixed with `what` when it is given, so x=rand:f32:N and
 * y=rand:f32:N are different arrays, and the values are the same on every
 * machine for a seed and a name (with what NULL: SEED itself).
 * On success *out is the argument; for KJIT_ARG_ARRAY the caller owns
 * out->value.array (kjit_array_destroy, or the context frees it), for
 * KJIT_ARG_TUPLE its element lists, name and keys (kjitaux_arg_free).
 * `what` names the value in messages ("argument 'x': ..."), or NULL.
 * Errors (in kjit_last_error(ctx)): INVALID_ARGUMENT (malformed spec, with
 * what is wrong and the forms accepted; NULLs), IO (a .npy that cannot be
 * read), OUT_OF_MEMORY (no handle could be made for an array). */
KJIT_API kjit_status kjitaux_arg_parse(kjit_context *ctx, const char *spec,
                                       const char *what, kjit_arg *out);

/* Frees the element lists, name and keys of a tuple made by
 * kjitaux_arg_parse (recursively) and clears them; its arrays stay alive
 * (they belong to the context).  Ignores other kinds and NULL.  Never call
 * it on a tuple built with kjit_arg_tuple over caller memory. */
KJIT_API void kjitaux_arg_free(kjit_arg *a);

/* One line describing host array a: "float32[1024] [0, 1, 2, ..., 1023]
 * sum=523776 crc=1a2b3c4d" (shape, the first and last values, the sum of
 * all elements as double (real parts for complex), the CRC-32 of the
 * element bytes in C order, so it does not depend on the layout).  The sum
 * is exactly that of adding the elements in C order in double; both are
 * computed at memory speed (one pass for the CRC, two for the sum).  A
 * record array gives "record[4] itemsize=8 DESCR crc=..." and then one
 * line per number field, "\n.x: float32[4] [...] sum=... crc=..." (nested:
 * ".p.x"), at most 699 bytes in all.  *out is malloc'd text for kjit_free.
 * Errors, with no message: INVALID_ARGUMENT (NULLs, a destroyed or device
 * array: copy a device array to a host one first), OUT_OF_MEMORY. */
KJIT_API kjit_status kjitaux_array_summary(kjit_array *a, char **out);

#ifdef __cplusplus
}
#endif

#endif /* KJITAUX_H */
