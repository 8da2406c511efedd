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
  "libxsim/colls/|libxsim/ netmodels/ pdes/ include/"
  # The per-rank state the engine owns (ARCHITECTURE.md, libxsim/runtime/): below the engine.
  "libxsim/runtime/privatization.hpp|libxsim/runtime/ pdes/"
  "libxsim/runtime/libc_rank_state.hpp|libxsim/runtime/ pdes/"
  "libxsim/runtime/cxx_exception_state.hpp|libxsim/runtime/ pdes/"
  "libxsim/|libxsim/ netmodels/ pdes/ include/"
  "launch/|netmodels/ pdes/"
  "bench/|libxsim/ netmodels/ pdes/ include/"
)

# The collective layer sits above the protocol and the engine, under the bindings: nothing
# below it may include libxsim/colls/ (the bindings, C and Fortran, may). These files still
# do; the list may only shrink. A file not listed here that includes libxsim/colls/ is a
# violation.
colls_debts=(
  libxsim/startup.cpp
  libxsim/deadlock_report.cpp
  libxsim/comm_create.hpp libxsim/comm_create.cpp libxsim/comm_split.cpp libxsim/intercomm.cpp
)

rule_for() {  # the allowed prefixes of the longest matching folder
    local file=$1 best="" allowed="" r folder
    for r in "${rules[@]}"; do
        folder=${r%%|*}
        if [[ $file == "$folder"* && ${#folder} -gt ${#best} ]]; then best=$folder; allowed=${r#*|}; fi
    done
    echo "$best|$allowed"
}

violations=0
while IFS= read -r file; do
    rule=$(rule_for "$file")
    folder=${rule%%|*}
    allowed=${rule#*|}
    [[ -n $folder ]] || continue
    dir=$(dirname "$file")
    while IFS= read -r target; do
        # A sibling header named relative to the file itself ("host_machine.hpp") is local.
        [[ $target != */* && -e $dir/$target ]] && continue
        [[ $target == xsim.h ]] && target=include/xsim.h
        ok=0
        for prefix in $allowed; do [[ $target == "$prefix"* ]] && ok=1; done
        if [[ $ok == 1 && $target == libxsim/colls/* && $file != libxsim/colls/* && $file != libxsim/bindings/* &&
              $file != libxsim/fortran/* ]]; then
            ok=0
            for debt in "${colls_debts[@]}"; do [[ $file == "$debt" ]] && ok=1; done
            [[ $ok == 1 ]] || { echo "$file: includes $target, but only libxsim/colls/ (and the listed debts) may include the collective layer"; violations=$((violations + 1)); continue; }
        fi
        if [[ $ok == 0 ]]; then
            echo "$file: includes $target, but $folder may include only: $allowed"
            violations=$((violations + 1))
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find pdes netmodels libxsim launch bench -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.c' \) | sort)

# A debt that was paid must leave the list, so the list stays the truth.
for debt in "${colls_debts[@]}"; do
    if [[ -e $debt ]] && ! grep -q '#include "libxsim/colls/' "$debt"; then
        echo "$debt: no longer includes libxsim/colls/; remove it from colls_debts in $0"
        violations=$((violations + 1))
    fi
done

if ((violations)); then
    echo "check_layers: $violations violation(s) of the layer rules (see ARCHITECTURE.md)"
    exit 1
fi
echo "check_layers: every include follows the layer rules"
