# shellcheck shell=bash
# testlib.sh - helpers shared by the test runners (sourced, not executed).
#
# ARGS convention: a test file names the kjit command line in a comment
#     # ARGS: ptx %s:kern --sig "void(float32[:])"
# Words are split like a shell would (quotes group, no globbing, no
# variables); %s is replaced by the test file's path relative to tests/.

# args_lines FILE: print the text after "ARGS:" of every "# ARGS:" line.
args_lines() {
  sed -n 's/^[[:space:]]*#[[:space:]]*ARGS:[[:space:]]*//p' "$1"
}

# split_args LINE FILE: set the array ARGV to the words of LINE, %s -> FILE.
split_args() {
  local line=${1//%s/$2}
  case $line in
    *'$'* | *'`'* | *';'* | *'|'* | *'&'* | *'>'* | *'<'*)
      echo "testlib: shell metacharacters are not allowed in ARGS: $1" >&2
      return 2 ;;
  esac
  set -f
  eval "ARGV=($line)"
  set +f
}

# Temporary directory removed on exit.
make_tmp() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/kjit-test.XXXXXX")
  trap 'rm -rf "$TMP"' EXIT
}
