# ARGS: ptx errors/errmods/relpkg/kern.py:k --sig "void(float32[:])"
# The kernel file of a package imports a sibling relatively (`from . import
# vec3`); a name the sibling lacks is reported with the module as written
# ('vec3'), never kjit's internal name for it ('$2.vec3').
