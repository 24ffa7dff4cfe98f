/* value.h - the kjit types of launch values (runtime/value.c): one mapping
 * from dtypes, records, arrays and tuples to IR types for every launch path. */
#ifndef KJIT_RUNTIME_VALUE_H
#define KJIT_RUNTIME_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "data/array.h"
#include "ir/ir.h"

/* A dtype's scalar type and back (false for a type no dtype has). */
const Type *rt_dtype_type(RtDtype dt);
bool rt_type_dtype(const Type *t, RtDtype *out);
/* The kjit type of a launch argument (RtValue is in array.h): arrays have C
 * layout when C-contiguous, else A (Numba's `readonly array` when
 * RtArray.readonly); scalars their dtype (a Python int is
 * int64, a float float64, as Numba types them).  NULL for 0-d
 * arrays or more than 4 dimensions. */
const Type *rt_value_type(TypeTable *tt, const RtValue *v);
/* The interned tuple type of a tuple value (elements: scalars, arrays,
 * tuples; at most 16 of them), NULL when an element has none. */
const Type *rt_tuple_type(TypeTable *tt, const RtValue *v);
/* Numba's name of a tuple value's type, "UniTuple(int64 x 2)",
 * "Tuple(int64, float64)", for messages. */
void rt_tuple_text(const RtValue *v, char *buf, size_t n);
/* The interned record type of a structured dtype (NULL if a field has no
 * kjit type); a 0-d record array is typed as its record (an argument passed
 * by reference, as Numba passes a record scalar). */
const Type *rt_record_type(TypeTable *tt, const RtRecord *r);
/* Does record r have the layout of record type t (fields, offsets, size;
 * the align flag aside)? */
bool rt_record_matches(const RtRecord *r, const Type *t);

#endif
