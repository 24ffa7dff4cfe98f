#!/usr/bin/env bash
# lint_includes.sh ROOT [--dot] - the stages see only the stages below them
# (docs/internals.md, "Layers").  Every #include "..." of the library and the
# CLI is resolved to a folder and checked against the allowed edges:
#   common   -> (nothing of kjit's)
#   frontend -> common
#   ir       -> frontend common
#   lower    -> ir frontend common
#   typing   -> ir common
#   codegen  -> ir common
#   lower    -> ir frontend common (lowering, module-level evaluation)
#   typing   -> ir common (type inference, specialization)
#   data     -> ir common include (arrays, records, .npy)
#   cache    -> codegen ir common (the disk cache)
#   runtime  -> codegen ir frontend common data cache include (the core:
#               context, compile driver, launch plan, dispatch)
#   host     -> runtime and what runtime may include (the CPU target)
#   cuda     -> runtime and what runtime may include (the CUDA target)
#   api      -> host cuda runtime and below (the functions of kjit.h)
#   aot      -> api and below (kjit_program_aot: `kjit aot`'s generator)
#   auxlib   -> include (libkjitaux: include/kjit.h only, as a client)
#   tools    -> include (tools/kjit.c and friends use only kjit.h and
#               kjitaux.h, both in include/)
#   include  -> (nothing of kjit's)
# plus: no file includes another folder's *_internal.h, and LLVM's headers
# (<llvm-c/...>) appear only in codegen/.  A violation is printed as
# FILE:LINE: message and the script exits 1.  With --dot it prints the
# folder graph as it is today in DOT (docs/internals.md shows it).
set -uo pipefail
root=${1:-.}
mode=${2:-check}
cd "$root" || exit 2

folders="common frontend ir lower typing codegen data cache runtime host cuda api aot auxlib tools include"
below_rt="codegen typing lower ir frontend common data cache include"
declare -A allowed=(
  [common]="" [frontend]="common" [ir]="frontend common"
  [lower]="ir frontend common" [typing]="ir common" [codegen]="ir common"
  [data]="ir common include" [cache]="codegen ir common"
  [runtime]="$below_rt" [host]="runtime $below_rt" [cuda]="runtime $below_rt"
  [api]="host cuda runtime $below_rt"
  [aot]="api host cuda runtime $below_rt"
  [auxlib]="include" [tools]="include" [include]="")

# The folder a quoted include names, seen from folder $1: "dir/x.h" is dir;
# a bare "x.h" is the includer's own folder if the file is there, else
# include/ (the public header's directory is on every include path).
resolve() {
  local from=$1 inc=$2
  if [[ $inc == */* ]]; then echo "${inc%%/*}"
  elif [[ -f $from/$inc ]]; then echo "$from"
  elif [[ -f include/$inc ]]; then echo include
  else echo "?"; fi
}

re_llvm='<(llvm-c/[^>]*)>'
re_quoted='"([^"]+)"'
fail=0
declare -A edges=()
report() { echo "$1: $2" >&2; fail=1; }
for from in $folders; do
  [[ -d $from ]] || continue
  while IFS= read -r hit; do
    loc=${hit%%:#*}                 # FILE:LINE
    line=${hit#*:}; line=${line#*:} # the directive
    if [[ $line =~ $re_llvm ]]; then
      [[ $from == codegen ]] || report "$loc" "$from/ includes <${BASH_REMATCH[1]}>: only codegen/ includes LLVM's headers"
      continue
    fi
    [[ $line =~ $re_quoted ]] || continue
    inc=${BASH_REMATCH[1]}
    to=$(resolve "$from" "$inc")
    if [[ $to == "?" ]]; then
      report "$loc" "cannot resolve #include \"$inc\" (write it as \"folder/file.h\")"
      continue
    fi
    if [[ $to != "$from" ]]; then
      edges["$from -> $to"]=$(( ${edges["$from -> $to"]:-0} + 1 ))
      if [[ $inc == *_internal.h ]]; then
        report "$loc" "$from/ includes $inc: a folder's *_internal.h is private to it"
      elif [[ " ${allowed[$from]} " != *" $to "* ]]; then
        report "$loc" "$from/ includes $inc: $from/ may include only ${allowed[$from]:-no other folder} (docs/internals.md, \"Layers\")"
      fi
    fi
  done < <(grep -rnE --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' "$from")
done

if [[ $mode == --dot ]]; then
  echo "digraph kjit {"
  for e in "${!edges[@]}"; do echo "  ${e% -> *} -> ${e#* -> };"; done | sort
  echo "}"
fi
if (( fail )); then
  echo "lint_includes.sh: include graph violated (see above)" >&2
  exit 1
fi
[[ $mode == --dot ]] || echo "lint_includes.sh: ok (${#edges[@]} folder edges, all allowed)"
