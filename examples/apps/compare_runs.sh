#!/usr/bin/env bash
# Run one application two ways and compare the answers it prints (used by CTest).
#
# usage: compare_runs.sh RUN_A RUN_B [--timeout SEC] [--exact-all] [-- app args...]
#   RUN is   native:EXE:NP      mpirun -np NP EXE args            (EXE linked with plain MPI)
#   or       xsim:EXE:P:N       mpirun -np P EXE -xsim-np N -xsim-compute none args
#   --timeout SEC   wall-clock limit per run (default 120, or $APPS_TIMEOUT)
#   --exact-all     compare every RESULT value as text, tolerances ignored
#
# The applications print their decomposition-independent answers on rank 0 as
#   RESULT <key> exact <value...>       must match as text (whitespace-normalised)
#   RESULT <key> rel <tol> <number>     |a - b| <= tol * max(|a|, |b|)
# and "RESULT verification exact SUCCESSFUL" when their own checks pass.
# Success: both runs exit 0, both print the same keys (at least one, and the verification
# line as SUCCESSFUL), and every value matches.
#
# Environment: MPIRUN (default mpirun), MPIRUN_FLAGS (default "--allow-run-as-root
# --oversubscribe"), XSIM_APPS_KEEP=1 keeps the outputs.
set -u -o pipefail

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

[[ $# -ge 2 ]] || usage
runs=("$1" "$2")
shift 2
timeout_s=${APPS_TIMEOUT:-120} exact_all=0 app_args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --timeout) [[ $# -ge 2 ]] || usage; timeout_s=$2; shift 2 ;;
        --exact-all) exact_all=1; shift ;;
        --) shift; app_args=("$@"); break ;;
        *) echo "compare_runs.sh: unknown option '$1'" >&2; usage ;;
    esac
done

MPIRUN=${MPIRUN:-mpirun}
read -r -a mpirun_flags <<<"${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe}"
out=$(mktemp -d "${TMPDIR:-/tmp}/xsim_apps.XXXXXX")
problems=()

# run_one INDEX SPEC: runs it, leaves $out/INDEX.{stdout,stderr,results}.
run_one() {
    local i=$1 spec=$2 kind exe p n cmd rc start elapsed
    IFS=: read -r kind exe p n <<<"$spec"
    case $kind in
        native) [[ $p =~ ^[1-9][0-9]*$ && -z $n ]] || { echo "compare_runs.sh: bad run '$spec'" >&2; exit 2; }
                cmd=("$MPIRUN" "${mpirun_flags[@]}" -np "$p" "$exe" "${app_args[@]+"${app_args[@]}"}") ;;
        xsim) [[ $p =~ ^[1-9][0-9]*$ && $n =~ ^[1-9][0-9]*$ ]] || { echo "compare_runs.sh: bad run '$spec'" >&2; exit 2; }
              cmd=("$MPIRUN" "${mpirun_flags[@]}" -np "$p" "$exe" -xsim-np "$n" -xsim-compute none
                   "${app_args[@]+"${app_args[@]}"}") ;;
        *) echo "compare_runs.sh: a run is native:EXE:NP or xsim:EXE:P:N, got '$spec'" >&2; exit 2 ;;
    esac
    [[ -x $exe ]] || { echo "compare_runs.sh: '$exe' is not an executable" >&2; exit 2; }
    echo "compare_runs: [$i] $(printf '%q ' "${cmd[@]}")"
    start=$(date +%s.%N)
    timeout --kill-after=15 "$timeout_s" "${cmd[@]}" >"$out/$i.stdout" 2>"$out/$i.stderr" </dev/null
    rc=$?
    elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    echo "compare_runs: [$i] exit status $rc after ${elapsed}s"
    if [[ $rc == 124 || $rc == 137 ]]; then
        problems+=("run $i ($spec) timed out after ${timeout_s}s")
    elif [[ $rc != 0 ]]; then
        problems+=("run $i ($spec) exited with status $rc")
    fi
    grep -E '^RESULT ' "$out/$i.stdout" | awk '{ $1 = $1; print }' >"$out/$i.results"
    sed 's/^/    /' "$out/$i.results"
    if ! grep -qx 'RESULT verification exact SUCCESSFUL' "$out/$i.results"; then
        problems+=("run $i ($spec) did not print 'RESULT verification exact SUCCESSFUL'")
    fi
}

run_one 1 "${runs[0]}"
run_one 2 "${runs[1]}"

# Compare key by key.
cmp=$(awk -v exact_all="$exact_all" '
    function abs(x) { return x < 0 ? -x : x }
    {
        file = FILENAME == ARGV[1] ? 1 : 2
        key = $2; mode = $3
        if (key in seen && seen[key] == file) { print "duplicate RESULT key " key " in run " file; bad = 1 }
        seen[key] = file
        if (mode == "rel") { tol[key] = $4; val = $5 } else { val = $4; for (k = 5; k <= NF; k++) val = val " " $k }
        if (file == 1) { a[key] = val; m[key] = mode; order[++n] = key } else { b[key] = val; mb[key] = mode }
    }
    END {
        for (k in b) if (!(k in a)) { print "key " k " only in run 2"; bad = 1 }
        for (i = 1; i <= n; i++) {
            k = order[i]
            if (!(k in b)) { print "key " k " only in run 1"; bad = 1; continue }
            if (m[k] != mb[k]) { print "key " k ": compared as " m[k] " in run 1, " mb[k] " in run 2"; bad = 1; continue }
            if (m[k] == "exact" || exact_all) {
                if (a[k] != b[k]) { print "key " k ": \"" a[k] "\" != \"" b[k] "\" (exact)"; bad = 1 }
                else print "ok " k " = " a[k]
            } else if (m[k] == "rel") {
                x = a[k] + 0; y = b[k] + 0; s = abs(x) > abs(y) ? abs(x) : abs(y)
                if (abs(x - y) > tol[k] * s) { printf "key %s: %s vs %s differ by %.3g relative (tolerance %s)\n", k, a[k], b[k], (s > 0 ? abs(x - y) / s : 0), tol[k]; bad = 1 }
                else printf "ok %s = %s ~ %s (rel %.3g <= %s)\n", k, a[k], b[k], (s > 0 ? abs(x - y) / s : 0), tol[k]
            } else { print "key " k ": unknown comparison \"" m[k] "\""; bad = 1 }
        }
        if (n == 0) { print "no RESULT lines in run 1"; bad = 1 }
        exit bad
    }' "$out/1.results" "$out/2.results")
cmp_rc=$?
while IFS= read -r line; do echo "compare_runs: $line"; done <<<"$cmp"
if [[ $cmp_rc != 0 ]]; then
    problems+=("the answers differ")
fi

if [[ ${#problems[@]} == 0 ]]; then
    echo "compare_runs: OK (${runs[0]##*/} vs ${runs[1]##*/})"
    if [[ ${XSIM_APPS_KEEP:-0} == 1 ]]; then
        echo "compare_runs: outputs kept in $out"
    else
        rm -rf "$out"
    fi
    exit 0
fi
for p in "${problems[@]}"; do echo "compare_runs: FAILED: $p"; done
for i in 1 2; do
    echo "----- run $i stdout (last 20 lines) -----"; tail -n 20 "$out/$i.stdout"
    echo "----- run $i stderr (last 20 lines) -----"; tail -n 20 "$out/$i.stderr"
done
echo "compare_runs: outputs kept in $out"
exit 1
