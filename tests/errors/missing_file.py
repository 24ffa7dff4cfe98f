# ARGS: check errors/this_file_does_not_exist.py
# The file named in ARGS does not exist: kjit reports an I/O error.
