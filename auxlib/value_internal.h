/* value.h - the parts of the VALUE parser (value.c, value_tuple.c) that
 * call each other: a spec is parsed into a kjit_arg whose arrays are new
 * handles of ctx, with the error text in err[0..errlen) on failure. */
#ifndef KJIT_AUXLIB_VALUE_H
#define KJIT_AUXLIB_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include "kjit.h"

/* One VALUE (value.c).  Returns 0, or -1 with the message in err; nothing
 * is left allocated on failure. */
int aux_value_parse(kjit_context *ctx, const char *text, kjit_arg *out, char *err, size_t errlen);
/* As aux_value_parse for the value of the argument `name` (NULL: none):
 * rand and randint draw from their SEED mixed with the name. */
int aux_value_parse_named(kjit_context *ctx, const char *text, const char *name, kjit_arg *out, char *err,
                          size_t errlen);
/* A tuple or namedtuple VALUE "(1, 2.5)", "Point(1.5, y=2.5)"
 * (value_tuple.c), as aux_value_parse. */
int aux_tuple_parse(kjit_context *ctx, const char *text, kjit_arg *out, char *err, size_t errlen);
/* Does text start with NAME( (a namedtuple VALUE)? */
bool aux_tuple_is_named(const char *text);
/* Releases everything a parsed value holds, its arrays included. */
void aux_arg_discard(kjit_arg *a);

#endif
