# A package whose kernel file imports a sibling relatively (module_name_internal.py).
