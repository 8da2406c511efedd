#!/usr/bin/env bash
# usage: check_symbols.sh LIBXSIM_SO SOURCE_DIR [HEADER...] [--forwarded NAME...]
# 1. Every MPI_X (and Open MPI extension MPIX_X) that libxsim.so exports is a weak alias of
#    its PMPI_X (PMPIX_X; same address), so a PMPI tool's MPI_X wraps the simulation and its
#    PMPI_X call reaches it.
# 2. Below the bindings (libxsim/{engine,mpi,p2p,colls,report,rank_state,runtime}) no code
#    calls a PMPI_ function by name: that name is xsim's own binding now; the real library is
#    reached through real_mpi (libxsim/mpi/real_mpi.hpp).
# 3. Every function the HEADERs (mpi.h, Open MPI's extension headers) declare, MPI_X and
#    PMPI_X, is defined by libxsim.so (a binding or an unsupported-call stub), but for the
#    --forwarded names (libxsim/CMakeLists.txt, XSIM_FORWARDED_MPI_FUNCTIONS): a missing one
#    would bind to the real library and be handed xsim's handles. Declarations are found here
#    independently of the stub generator, with any blanks before "(" (Open MPI 4.1 writes
#    "MPI_T_init_thread (int required, ...").
set -u -o pipefail
lib=$1 src=$2
shift 2
headers=() forwarded=()
while (($#)); do
    if [[ $1 == --forwarded ]]; then
        shift
        forwarded=("$@")
        break
    fi
    headers+=("$1")
    shift
done
fail=0
if ((${#headers[@]})); then
    defined=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sort -u)
    declared=$(grep -hE '^OMPI_DECLSPEC' "${headers[@]}" | grep -v extern |
               sed -nE 's/^[^(]*[ *](P?MPIX?_[A-Za-z0-9_]+)[[:space:]]*\(.*/\1/p' | sort -u)
    n=$(wc -l <<<"$declared")
    if ((n < 600)); then
        echo "FAIL only $n functions found declared in ${headers[*]}"
        fail=1
    fi
    missing=$(comm -23 <(echo "$declared") <(echo "$defined"))
    for name in "${forwarded[@]}"; do
        missing=$(grep -vxE "P?$name" <<<"$missing")
    done
    if [[ -n $missing ]]; then
        echo "FAIL declared in ${headers[*]} but not defined by $lib (they would reach the real library):"
        echo "$missing"
        fail=1
    fi
fi
nm -D --defined-only "$lib" | awk '$3 ~ /^P?MPIX?_[A-Z][a-z]/ { print $3, $1, $2 }' | sort | awk '
    { addr[$1] = $2; kind[$1] = $3 }
    END {
        n = 0
        for (s in addr) {
            if (s !~ /^MPIX?_/) continue
            ++n
            p = "P" s
            if (!(p in addr)) { print "FAIL " s " has no " p; bad = 1 }
            else if (addr[p] != addr[s]) { print "FAIL " s " is not an alias of " p; bad = 1 }
            else if (kind[s] != "W") { print "FAIL " s " is not weak"; bad = 1 }
        }
        if (n < 300) { print "FAIL only " n " MPI_ functions exported"; bad = 1 }
        exit bad
    }' || fail=1
calls=$(grep -rnE '(^|[^A-Za-z_0-9"#])PMPI_[A-Za-z0-9_]+[[:space:]]*\(' \
            "$src"/libxsim/{engine,mpi,p2p,colls,report,rank_state,runtime} --include='*.cpp' --include='*.hpp' |
        grep -vE ':[0-9]+:[[:space:]]*//')
if [[ -n $calls ]]; then
    echo "FAIL PMPI_ called by name below the bindings (use real_mpi.X, libxsim/mpi/real_mpi.hpp):"
    echo "$calls"
    fail=1
fi
[[ $fail == 0 ]] && echo "PASS pmpi symbols"
exit $fail
