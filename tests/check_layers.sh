#!/usr/bin/env bash
# Checks the layer rules of ARCHITECTURE.md over every quoted #include of the C/C++ sources:
# floors go down, never up. Run by CTest (test "layers") and so by CI.
#
# usage: check_layers.sh [source root]     (default: the repository this script is in)
# Prints one line per violation ("file: includes X, but <folder> may include only ...") and
# exits 1 if there is any.
set -u -o pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

# folder or file (longest match wins) | what its files may include (quoted includes, by prefix)
rules=(
  "pdes/|pdes/"
  "netmodels/|netmodels/ pdes/"
  # libxsim's floors, bottom up (ARCHITECTURE.md).
  "libxsim/rank_state/|libxsim/rank_state/ pdes/"
  "libxsim/mpi/|libxsim/mpi/ netmodels/ pdes/ include/"
  "libxsim/engine/|libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/p2p/|libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/colls/|libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/rma/|libxsim/rma/ libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/io/|libxsim/io/ libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/report/|libxsim/report/ libxsim/rma/ libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/bindings/|libxsim/bindings/ libxsim/io/ libxsim/report/ libxsim/rma/ libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/fortran/|libxsim/fortran/ libxsim/bindings/ libxsim/io/ libxsim/report/ libxsim/rma/ libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "libxsim/runtime/|libxsim/runtime/ libxsim/bindings/ libxsim/io/ libxsim/report/ libxsim/rma/ libxsim/colls/ libxsim/p2p/ libxsim/engine/ libxsim/mpi/ libxsim/rank_state/ netmodels/ pdes/ include/"
  "launch/|netmodels/ pdes/"
  "bench/|libxsim/ netmodels/ pdes/ include/"
)

# Files that still break their floor's rule; the list may only shrink (a file that stops
# breaking it must leave the list).
debts=(
)

rule_for() {  # sets folder and allowed: the longest matching folder and what it may include
    local file=$1 r f
    folder="" allowed=""
    for r in "${rules[@]}"; do
        f=${r%%|*}
        if [[ $file == "$f"* && ${#f} -gt ${#folder} ]]; then folder=$f; allowed=${r#*|}; fi
    done
}

# Every quoted #include, as "file:#include "target"", from one grep over the sorted sources:
# a few processes per file (sed, dirname, subshells) took 75 s of the suite on a loaded
# 2-core VM, where starting a process costs about 10 ms of CPU.
mapfile -t files < <(find pdes netmodels libxsim launch bench -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' \) | sort)
violations=0
current=""
while IFS= read -r line; do
    file=${line%%:*}
    target=${line#*\"} target=${target%\"}
    if [[ $file != "$current" ]]; then
        current=$file
        rule_for "$file"
        dir=${file%/*}
    fi
    [[ -n $folder ]] || continue
    # A sibling header named relative to the file itself ("host_machine.hpp") is local.
    [[ $target != */* && -e $dir/$target ]] && continue
    [[ $target == xsim.h ]] && target=include/xsim.h
    ok=0
    for prefix in $allowed; do [[ $target == "$prefix"* ]] && ok=1; done
    if [[ $ok == 0 ]]; then
        for debt in "${debts[@]}"; do [[ "$file|$target" == "$debt" ]] && ok=1; done
    fi
    if [[ $ok == 0 ]]; then
        echo "$file: includes $target, but $folder may include only: $allowed"
        violations=$((violations + 1))
    fi
done < <(grep -H -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "${files[@]}")

# A debt that was paid must leave the list, so the list stays the truth.
for debt in "${debts[@]}"; do
    file=${debt%%|*} target=${debt#*|}
    if [[ -e $file ]] && ! grep -q "#include \"$target\"" "$file"; then
        echo "$file: no longer includes $target; remove it from debts in $0"
        violations=$((violations + 1))
    fi
done

if ((violations)); then
    echo "check_layers: $violations violation(s) of the layer rules (see ARCHITECTURE.md)"
    exit 1
fi
echo "check_layers: every include follows the layer rules"
