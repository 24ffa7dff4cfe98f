/* modlink.h - programs of several files.  runtime/modules.c finds, reads and
 * parses the Python files a kernel file imports (IrModule, one per file,
 * each with its own Source) and decides what every import names;
 * ir_link_modules then merges them into the one Module that lowering reads.
 *
 * Key invariant: after linking, every name a function uses is spelled as the
 * merged Module binds it: the kernel file's own names stay as written, a
 * definition of module "pkg.util" becomes "pkg.util.NAME" and that module's
 * imports of numba/math/... become aliases "pkg.util.ALIAS".  Two files may
 * therefore both define `helper`.  A rewritten ND_NAME keeps the text the
 * user wrote in its `str` (for messages). */
#ifndef KJIT_LOWER_MODLINK_H
#define KJIT_LOWER_MODLINK_H

#include "ir/ir.h"

/* E231 (E_MODULE, common/diag_codes.h): a module or a name from one cannot
 * be found (located at the use or at the import). */

typedef enum IrImportKind {
  IMP_EXTERNAL,   /* numba, numpy, math, cmath, enum: resolved as before */
  IMP_MISSING,    /* no file found: host code may use it, kernels may not */
  IMP_USER,       /* a module kjit loaded: target */
} IrImportKind;

typedef struct IrModule IrModule;

typedef struct IrImportRes {
  IrImportKind kind;
  IrModule *target;     /* IMP_USER: `import a.b` -> a; `import a.b as x` and
                           `from a.b import n` -> a.b */
  const char *searched; /* IMP_MISSING: the folders looked in, for messages */
} IrImportRes;

typedef struct IrModChild {
  const char *name;     /* submodule `util` of package `pkg` */
  IrModule *mod;
} IrModChild;

struct IrModule {
  const char *qual;     /* "pkg.util"; "" for the kernel file */
  const char *path;     /* the file read; NULL for a folder without __init__.py */
  const char *dir;      /* folder that relative imports and submodules start from */
  const char *key;      /* canonical path: one IrModule per file */
  Module *ast;          /* never NULL (empty for a namespace package) */
  IrImportRes *res;     /* one per ast->imports entry */
  Vec(IrModChild) children; /* submodules imported so far (package attributes) */
  bool is_pkg;          /* __init__.py or a bare folder */
};

typedef Vec(IrModule *) IrModuleVec;

/* Rewrites every module's names (see above) and replaces p->ast with the
 * merged Module: the kernel file's functions first (so kernels keep their
 * order), constants of imported modules before the kernel file's (they may
 * be used there).  mods holds every module, each after those it imports
 * (cycles aside), the kernel file's last.  Names used in compiled functions that come from a module
 * not found, or that a found module lacks, are located errors in diags;
 * returns false if any was reported. */
bool ir_link_modules(IrProgram *p, IrModuleVec *mods, Diags *diags);

#endif
